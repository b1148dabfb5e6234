// The child process of a benchmark's stack (bench-stack.ts): PocketBase and the gateway in production
// mode on free ports, until the parent says stop (or goes away).
import { startStack } from "./stack.ts";
import type { BenchStackReady } from "./bench-stack.ts";

const stack = await startStack({
  dataDir: process.argv[2]!,
  port: 0,
  pbPort: 0,
  webDist: null,
  demo: false,
  quiet: true,
  production: true,
});
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // process.exit (not a signal) so that --cpu-prof writes its profile.
  void stack.stop().finally(() => process.exit(0));
};
process.on("message", (message) => message === "stop" && stop());
process.on("disconnect", stop); // the parent died: do not leave PocketBase running
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.send!({
  type: "ready",
  url: stack.url,
  pbUrl: stack.pbUrl,
  pbPid: stack.pocketbase.process.pid ?? 0,
} satisfies BenchStackReady);
