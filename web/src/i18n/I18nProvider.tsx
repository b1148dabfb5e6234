import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { en, type MessageKey } from "./en.ts";
import { es } from "./es.ts";
import { interpolate, type Locale, LOCALES } from "./format.ts";

const MESSAGES: Record<Locale, Record<MessageKey, string>> = { en, es };
const STORAGE_KEY = "flock.locale";

export interface I18n {
  locale: Locale;
  /** Translate `key`, filling `{name}` placeholders from `vars`. */
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

/**
 * The language is: the visitor's own choice on this device, else the browser's language when we
 * have it, else the church's default (passed in once settings load).
 */
export function I18nProvider({ children, churchDefault }: { children: ReactNode; churchDefault?: Locale | null }) {
  const [chosen, setChosen] = useState<Locale | null>(storedLocale);
  const locale: Locale = chosen ?? (navigator.languages.length ? browserLocale() : (churchDefault ?? "en"));

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
    setChosen(next);
  }, []);

  const value = useMemo<I18n>(
    () => ({
      locale,
      t: (key, vars) => interpolate(MESSAGES[locale][key] ?? en[key] ?? key, vars),
      has: (key): key is MessageKey => key in en,
      setLocale,
    }),
    [locale, setLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error("useI18n must be used inside <I18nProvider>");
  return context;
}
