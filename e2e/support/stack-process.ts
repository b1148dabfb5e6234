// One e2e church in a process of its own, started by e2e/global-setup.ts: `npm start`'s stack
// (PocketBase, mail catcher, the gateway serving web/dist) on a data directory the setup prepared.
// A process per stack, not one process for all, so that the stacks share neither an event loop (each
// gateway gets a core when one is free) nor module state (rate limiters, caches).
//
// argv: <dataDir> <webDist>. Sends { baseUrl, catcherUrl } once it serves; stops on SIGTERM or when
// the parent goes away.
import { startStack } from "../../scripts/lib/stack.ts";

export interface StackReady {
  baseUrl: string;
  catcherUrl: string;
}

const [dataDir, webDist] = process.argv.slice(2);
if (!dataDir || !webDist || !process.send) {
  throw new Error("usage: forked by e2e/global-setup.ts with <dataDir> <webDist> and an IPC channel");
}
const stack = await startStack({ dataDir, port: 0, pbPort: 0, webDist, demo: true, quiet: true });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void stack.stop().finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("disconnect", stop);
process.send({
  baseUrl: stack.url,
  catcherUrl: `http://127.0.0.1:${stack.catcher!.httpPort}`,
} satisfies StackReady);
