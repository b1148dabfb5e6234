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
import { formatCompiled, type CompiledMessage } from "@flock/shared/i18n/format";
import { en, type MessageKey } from "./en.ts";
import { type Locale, LOCALES } from "./format.ts";

/**
 * A catalog as the build ships it (web/vite-icu.ts): ICU messages precompiled, plain strings or ASTs.
 * English ships with the app without the staff screens' messages, which come in their own chunk.
 */
type Messages = Partial<Record<string, CompiledMessage>>;
const STORAGE_KEY = "flock.locale";

// English is the source and ships with the app; other languages are separate chunks, fetched only
// for the people who read them (each dictionary is ~15 KB gzip: the first-load budget is 170 KB).
const LOADERS: Record<Exclude<Locale, "en">, () => Promise<Messages>> = {
  es: () => import("./es.ts").then((m) => m.es as Messages),
};
const english = en as Messages;
const loaded = new Map<Locale, Messages>([["en", english]]);

// The staff screens' English ("admin.*"), fetched the first time one of them is asked for.
let englishStaff: Messages | null = null;
let englishStaffLoading: Promise<Messages | null> | null = null;
function loadEnglishStaff(): Promise<Messages | null> {
  englishStaffLoading ??= import("./en.ts?staff").then(
    (m) => (englishStaff = m.enStaff),
    () => {
      englishStaffLoading = null; // offline: try again on the next render
      return null;
    },
  );
  return englishStaffLoading;
}
const loading = new Map<Locale, Promise<Messages>>();

function loadMessages(locale: Locale): Promise<Messages> {
  const ready = loaded.get(locale);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(locale);
  if (!pending) {
    pending = LOADERS[locale as Exclude<Locale, "en">]().then((messages) => {
      loaded.set(locale, messages);
      return messages;
    });
    pending.catch(() => loading.delete(locale)); // offline: try again on the next render
    loading.set(locale, pending);
  }
  return pending;
}

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

// Start fetching the reader's dictionary with the app itself, not after the first render.
if (typeof navigator !== "undefined") {
  const early = storedLocale() ?? (navigator.languages?.length ? browserLocale() : "en");
  if (early !== "en") void loadMessages(early).catch(() => undefined);
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

  // Bumped when a dictionary arrives (the dictionaries themselves live in the module-level cache).
  const [, setArrivals] = useState(0);
  const [staff, setStaff] = useState<Messages | null>(englishStaff);
  const [unavailable, setUnavailable] = useState<Locale | null>(null);

  useEffect(() => {
    document.documentElement.lang = locale;
    if (loaded.has(locale)) return;
    let cancelled = false;
    loadMessages(locale).then(
      () => !cancelled && setArrivals((n) => n + 1),
      // The dictionary could not be fetched (offline): English rather than a blank page.
      () => !cancelled && setUnavailable(locale),
    );
    return () => {
      cancelled = true;
    };
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
    setChosen(next);
  }, []);

  // While a newly chosen language arrives, the page stays in the previous one (and keeps its state).
  const previous = useRef<Messages | undefined>(undefined);
  const dictionary = loaded.get(locale) ?? (unavailable === locale ? en : previous.current);
  previous.current = dictionary;
  const value = useMemo<I18n>(
    () => ({
      locale,
      t: (key, vars) => {
        const message = dictionary?.[key] ?? english[key] ?? staff?.[key];
        if (message !== undefined) {
          try {
            return formatCompiled(message, locale, vars);
          } catch (error) {
            // A count or choice left out by the caller: the key, rather than a page that fails to render.
            console.error(`[i18n] ${key}:`, error);
            return key;
          }
        }
        if (!staff) {
          // A staff screen's message before its chunk arrived: blank for that moment, then re-rendered.
          void loadEnglishStaff().then((arrived) => arrived && setStaff(arrived));
          return "";
        }
        return key;
      },
      has: (key): key is MessageKey => key in english || (!!staff && key in staff),
      setLocale,
    }),
    [locale, setLocale, dictionary, staff],
  );
  // At start, a few milliseconds while the reader's dictionary arrives: nothing rather than a flash of English.
  if (!dictionary) return null;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error("useI18n must be used inside <I18nProvider>");
  return context;
}
