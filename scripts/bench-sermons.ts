// `npx tsx scripts/bench-sermons.ts [--count=2000]`: the sermon list and search at scale (issue 13:
// p95 ≤ 100 ms at 2,000 sermons). Starts a throw-away stack with the demo church, adds `count`
// published sermons with notes and scripture (system job), then sends each query 200 times, one at
// a time, through the gateway's /graphql as a visitor, and prints p50/p95 per query. Prints figures;
// it asserts only that every answer is right (machines are shared and noisy).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { startStack, superuserCredentials } from "./lib/stack.ts";
import { booksField, parseScripture } from "../gateway/src/schema/sermons/scripture.ts";

const count = Number(process.argv.find((a) => a.startsWith("--count="))?.slice(8) ?? 2000);
const ROUNDS = 200;
const REFERENCES = [
  "John 3:16-21",
  "Rom 8",
  "Psalm 23",
  "Matt 5:1-12",
  "Gen 1",
  "Isa 40:28-31",
  "Luke 15:11-32",
  "Eph 2:1-10",
  "Hab 3:17-19",
  "Phil 4:4-9",
];
const WORDS = [
  "grace",
  "hope",
  "bread",
  "light",
  "shepherd",
  "mercy",
  "river",
  "kingdom",
  "peace",
  "harvest",
];

const dataDir = await mkdtemp(join(tmpdir(), "flock-bench-sermons-"));
const stack = await startStack({
  dataDir,
  port: 0,
  pbPort: 0,
  webDist: null,
  demo: true,
  quiet: true,
  production: true,
});
try {
  const su = new PocketBase(stack.pbUrl);
  su.autoCancellation(false);
  const creds = await superuserCredentials(dataDir);
  await su.collection("_superusers").authWithPassword(creds.email, creds.password);
  const speakers = (await su.collection("speakers").getFullList()).map((s) => s.id);
  const series = (await su.collection("sermon_series").getFullList()).map((s) => s.id);
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const reference = REFERENCES[i % REFERENCES.length]!;
    const parsed = parseScripture(reference);
    const day = new Date(Date.UTC(2010, 0, 3) + i * 3.5 * 86_400_000).toISOString().slice(0, 10);
    await su.collection("sermons").create({
      title: `Sermon ${i} on ${WORDS[i % WORDS.length]}`,
      slug: `bench-sermon-${i}`,
      series: series[i % series.length],
      speakers: [speakers[i % speakers.length]],
      preachedOn: `${day} 00:00:00.000Z`,
      scripture: reference,
      scriptureOsis: parsed.osis,
      scriptureBooks: booksField(parsed.books),
      summary: `A sermon about ${WORDS[(i + 3) % WORDS.length]}.`,
      notes: `## Notes\n\n${"Some words about faith, life and the week ahead. ".repeat(20)} marker${i}`,
      status: i % 20 === 0 ? "draft" : "published",
    });
  }
  console.log(`[bench-sermons] ${count} sermons added in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const CARD =
    "edges { node { id title path preachedOn scriptureText series { title artworkUrl } speakers { name } audio { durationSeconds } } } pageInfo { hasNextPage endCursor }";
  const queries: Record<string, string> = {
    "first page": `{ sermons(first: 12) { ${CARD} } }`,
    "search a word of the notes": `{ sermons(first: 12, search: "marker1234") { ${CARD} } }`,
    "search a common word": `{ sermons(first: 12, search: "harvest") { ${CARD} } }`,
    "filter by book": `{ sermons(first: 12, book: "Hab") { ${CARD} } }`,
    "filter by year": `{ sermons(first: 12, year: 2020) { ${CARD} } }`,
    "search by speaker": `{ sermons(first: 12, search: "Naomi") { ${CARD} } }`,
  };
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  console.log("query                          p50 ms   p95 ms   (sequential, visitor, through /graphql)");
  for (const [name, query] of Object.entries(queries)) {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS + 10; round++) {
      const t0 = performance.now();
      const response = await fetch(`${stack.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as { data?: { sermons: { edges: unknown[] } }; errors?: unknown };
      const elapsed = performance.now() - t0;
      if (!response.ok || body.errors || !body.data?.sermons.edges.length)
        throw new Error(`${name}: wrong answer ${JSON.stringify(body).slice(0, 300)}`);
      if (round >= 10) times.push(elapsed); // the first ten warm up
    }
    times.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(30)} ${percentile(times, 50).toFixed(1).padStart(6)}   ${percentile(times, 95).toFixed(1).padStart(6)}`,
    );
  }
} finally {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
