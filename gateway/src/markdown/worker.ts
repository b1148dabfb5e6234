// A Markdown render worker (see pool.ts): a child process that renders one job at a time, off the
// gateway's event loop.
// Image dimensions come from the media library, which only the main thread can read (it holds the
// caller's PocketBase client): the worker asks for them in the middle of a render.
import { setPriority } from "node:os";
import { imageUrls, plainText, renderMarkdown, type ImageInfo } from "./render.ts";
import type { FromWorker, ToWorker } from "./pool.ts";

if (!process.send) throw new Error("worker.ts runs as a child process of the gateway (markdown/pool.ts)");
const waitingForImages = new Map<number, (infos: Array<[string, ImageInfo]> | null) => void>();
// A gateway that went away while this worker loaded (a failed or stopped start) has closed the
// channel: sending would throw ERR_IPC_CHANNEL_CLOSED with a stack trace. Nobody to work for: leave.
const send = (message: FromWorker) => (process.connected ? process.send!(message) : process.exit(0));

async function run(message: Extract<ToWorker, { type: "job" }>): Promise<string | string[]> {
  switch (message.kind) {
    case "render":
      return renderMarkdown(message.markdown, {
        siteOrigin: message.siteOrigin,
        resolveImages: message.resolveImages
          ? (urls) =>
              new Promise((resolve, reject) => {
                waitingForImages.set(message.id, (infos) =>
                  infos ? resolve(new Map(infos)) : reject(new Error("image lookup failed")),
                );
                send({ type: "images", id: message.id, urls });
              })
          : undefined,
      });
    case "plainText":
      return plainText(message.markdown, message.max);
    case "imageUrls":
      return imageUrls(message.markdown);
  }
}

process.on("message", (message: ToWorker) => {
  if (message.type === "images") {
    const resume = waitingForImages.get(message.id);
    waitingForImages.delete(message.id);
    resume?.(message.infos);
    return;
  }
  run(message).then(
    (result) => send({ type: "done", id: message.id, result }),
    (error: unknown) =>
      send({
        type: "error",
        id: message.id,
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
// Loaded: from now on below the gateway's priority (pool.ts says how far).
try {
  const niceness = Number(process.env.FLOCK_MARKDOWN_WORKER_NICENESS ?? 0);
  if (niceness) setPriority(niceness);
} catch {
  /* not allowed here (some containers): it still renders off the request thread */
}
// The gateway went away (even killed): so does its worker.
process.on("disconnect", () => process.exit(0));
send({ type: "ready" });
