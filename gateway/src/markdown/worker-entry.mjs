// Entry of a Markdown render worker process (gateway/src/markdown/pool.ts). Plain JavaScript so that Node can
// start it under any runner (the gateway's `node --import tsx`, vitest, scripts): it loads tsx's
// loader into this thread itself, then the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
