import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { translator, type Locale } from "@flock/shared/i18n/server";
import { securityHeaders } from "./security-headers.ts";

/** The reader's language from Accept-Language, among the app's two (the church's is not known yet). */
function requestLocale(req: IncomingMessage): Locale {
  const header = req.headers["accept-language"] ?? "";
  for (const part of header.split(",")) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag === "es" || tag === "en") return tag;
  }
  return "en";
}

function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const t = translator(requestLocale(req));
  const wantsHtml = (req.headers.accept ?? "").includes("text/html");
  const headers = { ...securityHeaders(false), "retry-after": "5", "cache-control": "no-store" };
  if (!wantsHtml) {
    res.writeHead(503, { ...headers, "content-type": "text/plain; charset=utf-8" });
    res.end(`${t("starting.title")} ${t("starting.body")}\n`);
    return;
  }
  res.writeHead(503, { ...headers, "content-type": "text/html; charset=utf-8" });
  // No script (the CSP allows none inline): the meta refresh reloads until the app answers.
  res.end(
    `<!doctype html><html lang="${requestLocale(req)}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${t("starting.title")}</title></head>` +
      `<body><main><h1>${t("starting.title")}</h1><p>${t("starting.body")}</p></main></body></html>`,
  );
}

/**
 * The gateway's port, bound before anything slow happens (migrations, the first seed: 15–80 s), so a
 * port another program holds is found at once, and nobody can take it meanwhile. Until the gateway
 * takes this server over (createGateway's `server` option), every request is answered 503 "starting"
 * with Retry-After, in the reader's language. Rejects with the listen error (EADDRINUSE…).
 */
export function listenEarly(port: number, host: string): Promise<Server> {
  const server = createServer(answerStarting);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/** The port a listening server has (the one chosen when asked for port 0). */
export function listeningPort(server: Server): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}
