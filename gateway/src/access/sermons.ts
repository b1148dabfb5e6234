import type { UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Sermons' policy (pb_migrations/1732460000_sermons.js): series, speakers and sermons are
 * manageSermons' work (abilities.ts), drafts included; everyone reads what is published. Nothing
 * about one sermon, series or speaker narrows it further, so each `can` is the ability itself.
 */

/** What the caller may do with one sermon, series or speaker (`Sermon.can`, `SermonSeries.can`, `Speaker.can`). */
export interface SermonCan {
  edit: boolean;
}

/** Change, publish, unpublish or delete it; its audio, handouts and artwork. */
export const sermonCan = (user: UserRecord | null): SermonCan => ({ edit: can(user, "manageSermons") });

/**
 * Whether the caller's reads of sermons include drafts (manageSermons; no API scope reads them): only
 * then does a list of published sermons need its own `status = "published"` filter (see
 * content.ts#readsPostDrafts for why the others go without).
 */
export const readsSermonDrafts = (user: UserRecord | null): boolean => can(user, "manageSermons");
