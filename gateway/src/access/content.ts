import type { UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Content's policy: posts and pages (pb_migrations/1732100000_publishing.js, 1732495000_publishers_read.js,
 * 1732540000_content_write_scope.js). Feature-wide: editContent (write drafts) and publishContent
 * (everything else) in abilities.ts.
 */

/** What the caller may do with one post or page (`Post.can`, `Page.can`). */
export interface ContentCan {
  edit: boolean;
  publish: boolean;
  delete: boolean;
}

/** What a signed-in person may do with one post or page: writers change drafts, publishers anything. */
export function contentCan(user: UserRecord | null, status: string | undefined): ContentCan {
  const publisher = can(user, "publishContent");
  return {
    edit: publisher || (can(user, "editContent") && status === "draft"),
    publish: publisher,
    delete: publisher,
  };
}

/**
 * What an API client may do with one post: with the content.write scope, edit the drafts it wrote
 * (pb_migrations/1732540000_content_write_scope.js); never publish or delete.
 */
export function clientPostCan(
  client: { id: string; scopes: readonly string[] },
  post: { status: string; authorClient?: string },
): ContentCan {
  const edit =
    client.scopes.includes("content.write") &&
    post.status === "draft" &&
    !!post.authorClient &&
    post.authorClient === client.id;
  return { edit, publish: false, delete: false };
}

/**
 * Whether the caller's reads of posts include drafts: staff (editContent covers both roles), and an API
 * client with content.write (its own drafts). Only such a caller's list of published posts needs a
 * `status = "published"` filter; for everyone else the posts list rule already yields exactly the
 * published posts they may read, and a list without a filter is never answered after PocketBase's
 * per-IP random delay for empty filtered lists (a church that has not posted yet: issue 25).
 */
export function readsPostDrafts(
  user: UserRecord | null,
  client: { scopes: readonly string[] } | null,
): boolean {
  return client ? client.scopes.includes("content.write") : can(user, "editContent");
}
