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
