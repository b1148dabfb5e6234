// New prayer requests, live, as they reach the wall: `FLOCK_URL=… FLOCK_TOKEN=flock_… node prayer-live.mjs`
// A subscription over Server-Sent Events; with the PRAYER_MEMBERS scope the token also gets members-only
// requests. No dependencies (Node 20+). Stops after MAX_EVENTS events if that is set (for tests).
const url = process.env.FLOCK_URL ?? "http://127.0.0.1:3000";
const token = process.env.FLOCK_TOKEN;
if (!token) throw new Error("Set FLOCK_TOKEN to an API token (Administration → Integrations).");
const max = Number(process.env.MAX_EVENTS ?? Infinity);

const response = await fetch(`${url}/graphql`, {
  method: "POST",
  headers: {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "text/event-stream",
  },
  body: JSON.stringify({ query: "subscription { prayerWall { kind id request { body authorName } } }" }),
});
if (!response.ok) throw new Error(`The subscription was refused: HTTP ${response.status}`);
console.log("subscribed; waiting for prayer requests…");

let buffer = "";
let count = 0;
const decoder = new TextDecoder();
for await (const chunk of response.body) {
  buffer += decoder.decode(chunk, { stream: true });
  let end;
  while ((end = buffer.indexOf("\n\n")) !== -1) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trim())
      .join("\n");
    if (!block.includes("event: next") || !data) continue;
    const { kind, id, request } = JSON.parse(data).data.prayerWall;
    // RESYNC: events may have been missed (query the wall again); ADDED/UPDATED: on the wall now.
    if (kind === "RESYNC") console.log("resync: refetch the wall");
    else if (request)
      console.log(
        `${kind.toLowerCase()} ${id}: ${request.body}${request.authorName ? ` (${request.authorName})` : ""}`,
      );
    else console.log(`${kind.toLowerCase()} ${id}`);
    if (++count >= max) process.exit(0);
  }
}
