// The web app's message catalogs, one per area: web/src/i18n/en/<area>.ts is the source (English),
// es/<area>.ts its Spanish (typed by the English file: a missing or extra key fails the type check).
// The shell's English ships with the app; every other catalog, and every Spanish one, is its own chunk,
// fetched with the page that shows it (app/routes.tsx: `withMessages`) in the reader's language, so a
// visitor's first load carries only the shell's messages and their page's (QUALITY.md F1).
//
// Which catalog a key lives in follows from its prefix (areaOf below: "prayer.…" in prayer.ts,
// "admin.events.…" in admin-events.ts); a key that several features show lives in shell.ts (or, for
// staff screens, admin.ts), which every page has. scripts/web-messages.test.ts checks both rules and
// that each page asks for every catalog its code reads.
import type { CompiledMessage } from "@flock/shared/i18n/render";
import type { Locale } from "./format.ts";
import type { shell } from "./en/shell.ts";
import type { home } from "./en/home.ts";
import type { auth } from "./en/auth.ts";
import type { news } from "./en/news.ts";
import type { prayer } from "./en/prayer.ts";
import type { sermons } from "./en/sermons.ts";
import type { events } from "./en/events.ts";
import type { groups } from "./en/groups.ts";
import type { serving } from "./en/serving.ts";
import type { checkin } from "./en/checkin.ts";
import type { give } from "./en/give.ts";
import type { giving } from "./en/giving.ts";
import type { me } from "./en/me.ts";
import type { directory } from "./en/directory.ts";
import type { people } from "./en/people.ts";
import type { visit } from "./en/visit.ts";
import type { notifications } from "./en/notifications.ts";
import type { admin } from "./en/admin.ts";
import type { adminContent } from "./en/admin-content.ts";
import type { adminPeople } from "./en/admin-people.ts";
import type { adminVisits } from "./en/admin-visits.ts";
import type { adminPrayer } from "./en/admin-prayer.ts";
import type { adminSermons } from "./en/admin-sermons.ts";
import type { adminEvents } from "./en/admin-events.ts";
import type { adminGroups } from "./en/admin-groups.ts";
import type { adminIntegrations } from "./en/admin-integrations.ts";
import type { adminServing } from "./en/admin-serving.ts";
import type { adminCheckin } from "./en/admin-checkin.ts";
import type { adminGiving } from "./en/admin-giving.ts";

/** Every message key: the keys of the English catalogs together. */
export type MessageKey =
  | keyof typeof shell
  | keyof typeof home
  | keyof typeof auth
  | keyof typeof news
  | keyof typeof prayer
  | keyof typeof sermons
  | keyof typeof events
  | keyof typeof groups
  | keyof typeof serving
  | keyof typeof checkin
  | keyof typeof give
  | keyof typeof giving
  | keyof typeof me
  | keyof typeof directory
  | keyof typeof people
  | keyof typeof visit
  | keyof typeof notifications
  | keyof typeof admin
  | keyof typeof adminContent
  | keyof typeof adminPeople
  | keyof typeof adminVisits
  | keyof typeof adminPrayer
  | keyof typeof adminSermons
  | keyof typeof adminEvents
  | keyof typeof adminGroups
  | keyof typeof adminIntegrations
  | keyof typeof adminServing
  | keyof typeof adminCheckin
  | keyof typeof adminGiving;

/** A catalog as the build ships it (web/vite-icu.ts): plain strings, or ICU elements precompiled. */
export type Messages = Partial<Record<string, CompiledMessage>>;

/**
 * A catalog's module: its one export is the catalog (load.ts takes it whatever its name, so the table
 * below carries no `.then(m => m.name)` per entry: 56 of them were 0.2 KB gzip of every first load).
 */
export type CatalogModule = Record<string, Messages>;

/** The catalogs fetched on demand, per language: every area but the English shell. */
export const CATALOGS = {
  shell: { es: () => import("./es/shell.ts") },
  home: {
    en: () => import("./en/home.ts"),
    es: () => import("./es/home.ts"),
  },
  auth: {
    en: () => import("./en/auth.ts"),
    es: () => import("./es/auth.ts"),
  },
  news: {
    en: () => import("./en/news.ts"),
    es: () => import("./es/news.ts"),
  },
  prayer: {
    en: () => import("./en/prayer.ts"),
    es: () => import("./es/prayer.ts"),
  },
  sermons: {
    en: () => import("./en/sermons.ts"),
    es: () => import("./es/sermons.ts"),
  },
  events: {
    en: () => import("./en/events.ts"),
    es: () => import("./es/events.ts"),
  },
  groups: {
    en: () => import("./en/groups.ts"),
    es: () => import("./es/groups.ts"),
  },
  serving: {
    en: () => import("./en/serving.ts"),
    es: () => import("./es/serving.ts"),
  },
  checkin: {
    en: () => import("./en/checkin.ts"),
    es: () => import("./es/checkin.ts"),
  },
  give: {
    en: () => import("./en/give.ts"),
    es: () => import("./es/give.ts"),
  },
  giving: {
    en: () => import("./en/giving.ts"),
    es: () => import("./es/giving.ts"),
  },
  me: {
    en: () => import("./en/me.ts"),
    es: () => import("./es/me.ts"),
  },
  directory: {
    en: () => import("./en/directory.ts"),
    es: () => import("./es/directory.ts"),
  },
  people: {
    en: () => import("./en/people.ts"),
    es: () => import("./es/people.ts"),
  },
  visit: {
    en: () => import("./en/visit.ts"),
    es: () => import("./es/visit.ts"),
  },
  notifications: {
    en: () => import("./en/notifications.ts"),
    es: () => import("./es/notifications.ts"),
  },
  admin: {
    en: () => import("./en/admin.ts"),
    es: () => import("./es/admin.ts"),
  },
  "admin-content": {
    en: () => import("./en/admin-content.ts"),
    es: () => import("./es/admin-content.ts"),
  },
  "admin-people": {
    en: () => import("./en/admin-people.ts"),
    es: () => import("./es/admin-people.ts"),
  },
  "admin-visits": {
    en: () => import("./en/admin-visits.ts"),
    es: () => import("./es/admin-visits.ts"),
  },
  "admin-prayer": {
    en: () => import("./en/admin-prayer.ts"),
    es: () => import("./es/admin-prayer.ts"),
  },
  "admin-sermons": {
    en: () => import("./en/admin-sermons.ts"),
    es: () => import("./es/admin-sermons.ts"),
  },
  "admin-events": {
    en: () => import("./en/admin-events.ts"),
    es: () => import("./es/admin-events.ts"),
  },
  "admin-groups": {
    en: () => import("./en/admin-groups.ts"),
    es: () => import("./es/admin-groups.ts"),
  },
  "admin-integrations": {
    en: () => import("./en/admin-integrations.ts"),
    es: () => import("./es/admin-integrations.ts"),
  },
  "admin-serving": {
    en: () => import("./en/admin-serving.ts"),
    es: () => import("./es/admin-serving.ts"),
  },
  "admin-checkin": {
    en: () => import("./en/admin-checkin.ts"),
    es: () => import("./es/admin-checkin.ts"),
  },
  "admin-giving": {
    en: () => import("./en/admin-giving.ts"),
    es: () => import("./es/admin-giving.ts"),
  },
} satisfies Record<string, Partial<Record<Locale, () => Promise<CatalogModule>>>>;

export type Area = keyof typeof CATALOGS;

/** Key prefixes and the catalog that holds them, longest first; a key with none of them is the shell's. */
const PREFIXES: ReadonlyArray<readonly [string, Area]> = (
  [
    ["home.", "home"],
    ["footer.", "home"],
    ["social.", "home"],
    ["time.", "home"],
    ["auth.", "auth"],
    ["news.", "news"],
    ["prayer.admin.", "admin-prayer"],
    ["prayer.", "prayer"],
    ["sermons.", "sermons"],
    ["events.", "events"],
    ["groups.", "groups"],
    ["serving.", "serving"],
    ["checkin.", "checkin"],
    ["give.", "give"],
    ["giving.", "giving"],
    ["me.", "me"],
    ["directory.", "directory"],
    ["people.", "people"],
    ["phoneKind.", "people"],
    ["householdRole.", "people"],
    ["ageGroup.", "people"],
    ["visibility.", "people"],
    ["photo.", "people"],
    ["visit.", "visit"],
    ["notifications.", "notifications"],
    ["staffAlerts.", "notifications"],
    ["admin.content.", "admin-content"],
    ["admin.people.", "admin-people"],
    ["admin.household.", "admin-people"],
    ["admin.visits.", "admin-visits"],
    ["admin.sermons.", "admin-sermons"],
    ["admin.events.", "admin-events"],
    ["admin.groups.", "admin-groups"],
    ["admin.serving.", "admin-serving"],
    ["admin.checkin.", "admin-checkin"],
    ["admin.giving.", "admin-giving"],
    ["admin.integrations.", "admin-integrations"],
    ["admin.webhooks.", "admin-integrations"],
    ["admin.", "admin"],
    ["permission.", "admin"],
  ] as const
)
  .slice()
  .sort((a, b) => b[0].length - a[0].length);

/** The catalog a key belongs in by its prefix (a shared key may sit in shell.ts or admin.ts instead). */
export function areaOf(key: string): Area {
  return PREFIXES.find(([prefix]) => key.startsWith(prefix))?.[1] ?? "shell";
}
