// A webhook receiver that checks every request's signature (Standard Webhooks) before trusting it:
// `FLOCK_WEBHOOK_SECRET=whsec_… PORT=8787 node webhook-receiver.mjs`. No dependencies (Node 20+).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const secret = process.env.FLOCK_WEBHOOK_SECRET;
if (!secret?.startsWith("whsec_"))
  throw new Error("Set FLOCK_WEBHOOK_SECRET to the webhook's signing secret (whsec_…).");
const key = Buffer.from(secret.slice("whsec_".length), "base64");
/** Requests older (or newer) than this are refused: a replayed request carries an old timestamp. */
const TOLERANCE_SECONDS = 5 * 60;
const seen = new Set(); // webhook-ids already handled: deliveries may repeat (at-least-once)

/** True when the signature is one of those in the header and the timestamp is recent. */
export function verify(headers, body) {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = String(headers["webhook-signature"] ?? "").split(" ");
  if (!id || !Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS)
    return false;
  const expected = Buffer.from(
    createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64"),
  );
  return signatures.some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    if (!verify(req.headers, body)) {
      console.log("refused: bad or missing signature");
      res.writeHead(401).end();
      return;
    }
    const id = req.headers["webhook-id"];
    if (!seen.has(id)) {
      seen.add(id);
      const event = JSON.parse(body);
      console.log(`verified ${event.type} ${JSON.stringify(event.data)}`);
    }
    res.writeHead(204).end(); // answer quickly; do slow work afterwards
  });
});
server.listen(Number(process.env.PORT ?? 8787), "127.0.0.1", () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}/`),
);
