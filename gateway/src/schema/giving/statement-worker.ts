import { setPriority } from "node:os";
import { makeStatements, type StatementJob } from "./statement-runs.ts";

// A statements run's worker process (statement-runs.ts): told one run, makes it, and ends. It runs below
// the gateway's priority, so a church's year of statements takes the CPU requests leave.

try {
  setPriority(10);
} catch {
  // Not allowed here (some containers): the run still works, at the same priority.
}

process.once("message", (job: StatementJob) => {
  void makeStatements(job).finally(() => process.exit(0));
});
// The parent went away (the gateway stopped): a half-made run is marked failed by its heartbeat.
process.once("disconnect", () => process.exit(0));
