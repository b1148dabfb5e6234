// The catalogs that have arrived, per language, and their loading (see catalogs.ts for the areas).
// Module state rather than React state: a page's chunk asks for its catalogs before React renders it
// (app/routes.tsx), and an arrival must not re-render the whole app unless something waits for it.
import { shell } from "./en/shell.ts";
import { areaOf, CATALOGS, type Area, type CatalogModule, type Messages } from "./catalogs.ts";
import { LOCALES, type Locale } from "./format.ts";

/** Each language's messages from every catalog that has arrived, merged for lookups by key. */
const dictionaries = new Map<Locale, Messages>(LOCALES.map((l) => [l, {}]));
Object.assign(dictionaries.get("en")!, shell as Messages);

/** `locale:area` of the catalogs that arrived. */
const arrived = new Set<string>(["en:shell"]);
/** `locale:area` settled: arrived, or stood in for by English when the language's own could not come. */
const settled = new Set<string>(["en:shell"]);
const fetching = new Map<string, Promise<void>>();

/** The language catalogs are fetched in: the reader's, once the provider knows it. */
let readerLocale: Locale = "en";

export function setReaderLocale(locale: Locale): void {
  readerLocale = locale;
}

const id = (locale: Locale, area: Area) => `${locale}:${area}`;

function fetchCatalog(locale: Locale, area: Area): Promise<void> {
  const key = id(locale, area);
  if (arrived.has(key)) return Promise.resolve();
  let pending = fetching.get(key);
  if (!pending) {
    const load = (CATALOGS[area] as Partial<Record<Locale, () => Promise<CatalogModule>>>)[locale];
    pending = (load ? load() : Promise.reject(new Error(`No ${locale} catalog for ${area}`))).then(
      (module) => {
        Object.assign(dictionaries.get(locale)!, Object.values(module)[0]);
        arrived.add(key);
        settled.add(key);
        fetching.delete(key);
      },
      (error: unknown) => {
        fetching.delete(key); // offline or a new deploy: the next render asks again
        throw error;
      },
    );
    fetching.set(key, pending);
  }
  return pending;
}

/**
 * Fetch `areas`' catalogs in the reader's language (or `locale`). A Spanish catalog that cannot be
 * fetched (offline) is stood in for by the English one, as the provider falls back to English.
 */
export function loadMessages(areas: readonly Area[], locale: Locale = readerLocale): Promise<void> {
  return Promise.all(
    areas.map((area) =>
      fetchCatalog(locale, area).catch((error: unknown) => {
        if (locale === "en") throw error;
        return fetchCatalog("en", area).then(() => void settled.add(id(locale, area)));
      }),
    ),
  ).then(() => undefined);
}

/** The catalogs settled in `from` (the language on screen) that `to` still lacks: a change of language. */
export function missingFor(to: Locale, from: Locale | null): Area[] {
  const areas = from ? (Object.keys(CATALOGS) as Area[]).filter((a) => settled.has(id(from, a))) : ["shell"];
  return (areas as Area[]).filter((area) => !settled.has(id(to, area)));
}

/** The message for `key` in `locale`, else in English (a catalog that could not arrive), else none. */
export function lookup(locale: Locale, key: string): Messages[string] {
  return dictionaries.get(locale)![key] ?? dictionaries.get("en")![key];
}

/**
 * A key none of the arrived catalogs has: fetch the catalog it belongs in (by its prefix) and report
 * whether one was missing. `onArrival` runs once it is here.
 */
export function fetchMissing(locale: Locale, key: string, onArrival: () => void): boolean {
  const area = areaOf(key);
  if (arrived.has(id(locale, area)) || arrived.has(id("en", area))) return false;
  void loadMessages([area], locale).then(onArrival, () => undefined);
  return true;
}
