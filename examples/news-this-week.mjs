// This week's news, read with an API token: `FLOCK_URL=https://church.example FLOCK_TOKEN=flock_… node news-this-week.mjs`
// A token with the CONTENT_MEMBERS scope also sees members-only posts. No dependencies (Node 20+).
const url = process.env.FLOCK_URL ?? "http://127.0.0.1:3000";
const token = process.env.FLOCK_TOKEN;
if (!token) throw new Error("Set FLOCK_TOKEN to an API token (Administration → Integrations).");

const since = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
const response = await fetch(`${url}/graphql`, {
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  body: JSON.stringify({
    query: `query ($since: DateTime!) { posts(first: 50, publishedAfter: $since) { edges { node { title url publishedAt audience } } } }`,
    variables: { since },
  }),
});
if (response.status === 401) throw new Error("The token was refused (unknown, revoked or expired).");
if (response.status === 429)
  throw new Error(`Rate limited; try again in ${response.headers.get("retry-after")} s.`);
const { data, errors } = await response.json();
if (errors) throw new Error(errors.map((e) => `${e.extensions?.code}: ${e.message}`).join("\n"));

const posts = data.posts.edges.map((edge) => edge.node);
console.log(posts.length ? `${posts.length} post(s) this week:` : "No news this week.");
for (const post of posts)
  console.log(
    `- ${post.publishedAt.slice(0, 10)}  ${post.title}${post.audience === "MEMBERS" ? " (members)" : ""}  ${post.url}`,
  );
console.log(`(${response.headers.get("ratelimit-remaining")} requests left this minute)`);
