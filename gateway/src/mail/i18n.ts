import { pickLocale, translator, type Locale, type Translate } from "@flock/shared/i18n/server";
import type { SettingsRecord, UserRecord } from "../pocketbase/records.ts";

/**
 * Server-side text follows its reader's language: the recipient's own choice (users.locale) when they
 * made one, else the church's language (settings.locale). Mail to people without an account (a
 * visitor, an invitee) and PocketBase's own templates are written in the church's language.
 * The messages themselves live in @flock/shared/i18n/server-en.ts (and -es.ts).
 */
export function recipientLocale(
  user: Pick<UserRecord, "locale"> | null | undefined,
  settings: Pick<SettingsRecord, "locale">,
): Locale {
  return pickLocale(user?.locale, settings.locale);
}

/** The church's language (for readers without an account). */
export const churchLocale = (settings: Pick<SettingsRecord, "locale">): Locale =>
  pickLocale(null, settings.locale);

export { translator, type Locale, type Translate };
