// The editor test page (web/editor-harness.html, see web/src/editor/harness.tsx): built with the
// app's own Vite config (web/src/editor/harness.vite.config.ts) into a temporary folder and served
// from there. Built once by e2e/global-setup.ts for the editor e2e files.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../../scripts/lib/pocketbase.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const file = normalize(join(dir, path === "/" ? "editor-harness.html" : decodeURIComponent(path)));
    if (!file.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        server,
        url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`,
      });
    });
  });
}

export interface EditorHarnessServer {
  url: string;
  close(): Promise<void>;
}

/** Build the harness page and serve it on a free local port. */
export async function startEditorHarness(): Promise<EditorHarnessServer> {
  const outDir = await mkdtemp(join(tmpdir(), "flock-editor-harness-"));
  const web = join(ROOT, "web");
  await promisify(execFile)(
    process.execPath,
    [
      join(web, "node_modules", "vite", "bin", "vite.js"),
      "build",
      "--config",
      "src/editor/harness.vite.config.ts",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--logLevel",
      "error",
    ],
    { cwd: web },
  );
  const { server, url } = await serve(outDir);
  return {
    url,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
