// Integration files in one worker share its modules and its PocketBase (vitest.config.ts: isolate is
// off). A gateway a file leaves listening keeps its periodic jobs running into the next files, where
// they take those files' queued mail and webhook rows (a drain test once saw 1 of its 8 mails). So
// every file closes what it starts, and this checks it after each file's own afterAll hooks.
import { afterAll, beforeAll, expect } from "vitest";
import { runningPeriodicJobs } from "../src/system/periodic-job.ts";

let before = new Set<number>();
beforeAll(() => {
  before = new Set(runningPeriodicJobs().map((job) => job.id));
});
afterAll(() => {
  const left = runningPeriodicJobs().filter((job) => !before.has(job.id));
  expect(
    left.map((job) => job.name),
    "periodic jobs this file started and left running: close every gateway it listened with",
  ).toEqual([]);
});
