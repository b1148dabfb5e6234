import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { print } from "graphql";
import { startStack } from "../scripts/lib/stack.ts";
import { pocketBaseStats } from "../gateway/src/pocketbase/http-fetch.ts";
import { NewsPageDocument, HomeNewsDocument } from "../web/src/features/content/news.generated.ts";
import { UpcomingEventsDocument, EventsCalendarDocument } from "../web/src/features/events/events.generated.ts";
import { SermonsPageDocument, LatestSermonDocument, SermonFiltersDocument } from "../web/src/features/sermons/sermons.generated.ts";
import { AppShellDocument } from "../web/src/gql/AppShell.generated.ts";
import { DEMO_PASSWORD } from "../scripts/lib/seed.ts";
const dataDir = await mkdtemp(join(tmpdir(), "flock-demo-thr-"));
const stack = await startStack({ dataDir, port: 0, pbPort: 0, webDist: "web/dist", demo: true, quiet: true, production: true });
const gql = async (doc: unknown, variables: Record<string, unknown>, cookie = "") => {
  const r = await fetch(`${stack.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1", ...(cookie ? { cookie } : {}) }, body: JSON.stringify({ query: print(doc as never), variables }) });
  return { body: (await r.json()) as { errors?: unknown }, cookie: r.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
};
const signIn = await gql({ kind: "Document", definitions: [] } as never, {}).catch(() => null);
void signIn;
const login = await fetch(`${stack.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1" }, body: JSON.stringify({ query: "mutation($i: SignInInput!) { signIn(input: $i) { user { id } } }", variables: { i: { email: "member@grace.example", password: DEMO_PASSWORD } } }) });
const memberCookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
const now = new Date();
const docs: Array<[string, unknown, Record<string, unknown>]> = [
  ["AppShell", AppShellDocument, {}], ["HomeNews", HomeNewsDocument, {}], ["NewsPage", NewsPageDocument, {}],
  ["UpcomingEvents", UpcomingEventsDocument, {}], ["EventsCalendar", EventsCalendarDocument, { from: now.toISOString(), to: new Date(now.getTime() + 40 * 86400e3).toISOString() }],
  ["SermonsPage", SermonsPageDocument, { locale: "en" }], ["LatestSermon", LatestSermonDocument, { locale: "en" }], ["SermonFilters", SermonFiltersDocument, { locale: "en" }],
];
for (const [who, cookie] of [["visitor", ""], ["member", memberCookie]]) {
  for (const [name, doc, vars] of docs) {
    const before = pocketBaseStats.emptyFilteredLists;
    const { body } = await gql(doc, vars, cookie);
    const n = pocketBaseStats.emptyFilteredLists - before;
    console.log(who, name, body.errors ? "ERRORS " + JSON.stringify(body.errors).slice(0, 120) : "ok", "emptyFiltered", n, n ? decodeURIComponent(pocketBaseStats.lastEmptyFilteredList).slice(0, 200) : "");
  }
}
await stack.stop(); process.exit(0);
