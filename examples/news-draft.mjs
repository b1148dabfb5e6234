// A news draft written with an API token, for staff to review and publish: a website form, a ministry
// leader's script. `FLOCK_URL=https://church.example FLOCK_TOKEN=flock_… node news-draft.mjs "Title" text.md`
// (the Markdown from a file, or from standard input). With FLOCK_POST_ID=<id> it saves a new version of
// that draft instead (one this token wrote). The token needs the CONTENT_WRITE scope: it writes drafts
// only, never publishes. No dependencies (Node 20+).
import { readFile } from "node:fs/promises";

const url = process.env.FLOCK_URL ?? "http://127.0.0.1:3000";
const token = process.env.FLOCK_TOKEN;
if (!token)
  throw new Error(
    "Set FLOCK_TOKEN to an API token with the CONTENT_WRITE scope (Administration → Integrations).",
  );
const [title, file] = process.argv.slice(2);
if (!title) throw new Error('Usage: node news-draft.mjs "Title" [text.md]');
const body = file ? await readFile(file, "utf8") : await new Response(process.stdin).text();

async function graphql(query, variables) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  if (response.status === 401) throw new Error("The token was refused (unknown, revoked or expired).");
  if (response.status === 429)
    throw new Error(`Rate limited; try again in ${response.headers.get("retry-after")} s.`);
  const { data, errors } = await response.json();
  // FORBIDDEN: the token lacks CONTENT_WRITE, or the post is not its own draft. BAD_USER_INPUT says
  // which fields were refused and why in extensions.fieldErrors ({title: "…"}), one line each here.
  if (errors)
    throw new Error(
      errors
        .map((e) =>
          [
            `${e.extensions?.code}: ${e.message}`,
            ...Object.entries(e.extensions?.fieldErrors ?? {}).map(([field, why]) => `  ${field}: ${why}`),
          ].join("\n"),
        )
        .join("\n"),
    );
  return data;
}

const FIELDS = "id title status revision authorName";
let post;
if (process.env.FLOCK_POST_ID) {
  // Send back the revision last read: if staff saved the draft since, the save is refused (CONFLICT)
  // rather than overwriting their work.
  const { postById } = await graphql(
    `
      query ($id: ID!) {
        postById(id: $id) {
          revision
        }
      }
    `,
    { id: process.env.FLOCK_POST_ID },
  );
  if (!postById) throw new Error("No such draft for this token (it reads only the drafts it wrote).");
  ({ updatePost: post } = await graphql(
    `mutation ($id: ID!, $input: PostInput!, $rev: Int!) { updatePost(id: $id, input: $input, expectedRevision: $rev) { ${FIELDS} } }`,
    { id: process.env.FLOCK_POST_ID, input: { title, body }, rev: postById.revision },
  ));
} else {
  ({ createPost: post } = await graphql(
    `mutation ($input: PostInput!) { createPost(input: $input) { ${FIELDS} } }`,
    { input: { title, body } },
  ));
}
console.log(`Draft saved: "${post.title}" (revision ${post.revision}, by ${post.authorName}), id ${post.id}`);
console.log(`Staff review and publish it at ${url}/admin/news/${post.id}`);
