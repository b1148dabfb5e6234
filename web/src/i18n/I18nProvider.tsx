import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { formatCompiled } from "@flock/shared/i18n/render";
import type { MessageKey } from "./catalogs.ts";
import { type Locale, LOCALES } from "./format.ts";
import { fetchMissing, loadMessages, lookup, missingFor, setReaderLocale } from "./load.ts";

export type { MessageKey } from "./catalogs.ts";

const STORAGE_KEY = "flock.locale";

export interface I18n {
  locale: Locale;
  /** Translate `key`: an ICU message, with `{name}` placeholders and `{count, plural, …}` counts filled from `vars`. */
  t(key: MessageKey, vars?: Record<string, string | number>): string;
  /** True when `key` exists (for codes that come from the server). */
  has(key: string): key is MessageKey;
  /** Switch language and remember the choice on this device. */
  setLocale(locale: Locale): void;
}

const I18nContext = createContext<I18n | null>(null);

function storedLocale(): Locale | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return LOCALES.includes(value as Locale) ? (value as Locale) : null;
  } catch {
    return null;
  }
}

function browserLocale(): Locale {
  return navigator.languages.some((l) => l.toLowerCase().startsWith("es")) ? "es" : "en";
}

// The reader's language as far as it is known before the first render: pages opened first fetch their
// catalogs in it (app/routes.tsx), and a Spanish reader's shell catalog starts with the app itself.
if (typeof navigator !== "undefined") {
  const early = storedLocale() ?? (navigator.languages?.length ? browserLocale() : "en");
  setReaderLocale(early);
  if (early !== "en") void loadMessages(["shell"], early).catch(() => undefined);
}

/**
 * The language is: the visitor's own choice on this device, else the browser's language when we
 * have it, else the church's default (passed in once settings load).
 */
export function I18nProvider({
  children,
  churchDefault,
}: {
  children: ReactNode;
  churchDefault?: Locale | null;
}) {
  const [chosen, setChosen] = useState<Locale | null>(storedLocale);
  const locale: Locale = chosen ?? (navigator.languages.length ? browserLocale() : (churchDefault ?? "en"));
  // Pages fetch their catalogs in the language being read (idempotent: the same value every render).
  setReaderLocale(locale);

  // Bumped when catalogs something waits for arrive (the catalogs themselves live in load.ts).
  const [arrivals, setArrivals] = useState(0);
  const [unavailable, setUnavailable] = useState<Locale | null>(null);

  // While a newly chosen language's catalogs arrive (those of everything on screen), the page stays
  // in the previous one and keeps its state; at start, nothing rather than a flash of English.
  const shown = useRef<Locale | null>(null);
  const missing = missingFor(locale, shown.current);
  if (missing.length === 0 || unavailable === locale) shown.current = locale;
  const rendered = shown.current;
  const waiting = missing.join(",");

  useEffect(() => {
    if (!waiting) return;
    let cancelled = false;
    loadMessages(waiting.split(",") as typeof missing, locale).then(
      () => !cancelled && setArrivals((n) => n + 1),
      // Neither the language's catalogs nor the English ones came (offline): what is here, in English.
      () => !cancelled && setUnavailable(locale),
    );
    return () => {
      cancelled = true;
    };
  }, [locale, waiting]);

  useEffect(() => {
    if (rendered) document.documentElement.lang = rendered;
  }, [rendered]);

  const setLocale = useCallback((next: Locale) => {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
    setChosen(next);
  }, []);

  const value = useMemo<I18n | null>(() => {
    if (!rendered) return null;
    const arrival = () => setArrivals((n) => n + 1);
    return {
      locale: rendered,
      t: (key, vars) => {
        const message = lookup(rendered, key);
        if (message !== undefined) {
          try {
            return formatCompiled(message, rendered, vars);
          } catch (error) {
            // A count or choice left out by the caller: the key, rather than a page that fails to render.
            console.error(`[i18n] ${key}:`, error);
            return key;
          }
        }
        // A catalog the page did not ask for (app/routes.tsx): blank for that moment, then re-rendered.
        return fetchMissing(rendered, key, arrival) ? "" : key;
      },
      has: (key): key is MessageKey => lookup(rendered, key) !== undefined,
      setLocale,
    };
    // `arrivals`: a new value (consumers re-render) when a catalog something waited for arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rendered, setLocale, arrivals]);
  if (!value) return null;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error("useI18n must be used inside <I18nProvider>");
  return context;
}
