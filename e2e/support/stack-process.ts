// The e2e churches, each in a process of its own, forked by e2e/global-setup.ts:
//
//   seed <dataDir>            the demo church into an empty data directory (`npm start`'s first start
//                             without the gateway), then exit
//   serve <dataDir> <webDist> `npm start`'s stack (PocketBase, mail catcher, the gateway serving
//                             web/dist) on a copy of it; sends { baseUrl, catcherUrl } once it serves,
//                             stops on SIGTERM or when the parent goes away
//
// Processes rather than the vitest process itself: seeding encodes MP3s for seconds at a time, which
// would stall the test runner's own event loop, and churches in processes of their own share neither
// an event loop (each gateway gets a core when one is free) nor module state (rate limiters, caches).
import PocketBase from "pocketbase";
import { resolvePocketBaseBinary, startPocketBase, upsertSuperuser } from "../../scripts/lib/pocketbase.ts";
import { seedDemo } from "../../scripts/lib/seed.ts";
import { freePort, startStack, superuserCredentials } from "../../scripts/lib/stack.ts";

export interface StackReady {
  baseUrl: string;
  catcherUrl: string;
}

const [mode, dataDir, webDist] = process.argv.slice(2);
if (!process.send || !dataDir || (mode !== "seed" && mode !== "serve") || (mode === "serve" && !webDist)) {
  throw new Error("usage (forked with an IPC channel): seed <dataDir> | serve <dataDir> <webDist>");
}

if (mode === "seed") {
  const bin = resolvePocketBaseBinary();
  const superuser = await superuserCredentials(dataDir);
  await upsertSuperuser(bin, dataDir, superuser.email, superuser.password);
  const pocketbase = await startPocketBase({ bin, dataDir, port: await freePort(), quiet: true });
  try {
    const system = new PocketBase(pocketbase.url);
    system.autoCancellation(false);
    await system.collection("_superusers").authWithPassword(superuser.email, superuser.password);
    await seedDemo(system);
  } finally {
    await pocketbase.stop();
  }
  process.exit(0);
} else {
  const stack = await startStack({ dataDir, port: 0, pbPort: 0, webDist: webDist!, demo: true, quiet: true });
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
}
