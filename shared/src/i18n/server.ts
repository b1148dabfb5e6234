import { formatMessage, type Locale, type MessageValues } from "./format.ts";
import { serverEn, type ServerMessageKey } from "./server-en.ts";
import { serverEs } from "./server-es.ts";

export { pickLocale, type Locale } from "./format.ts";
export type { ServerMessageKey } from "./server-en.ts";

export const SERVER_MESSAGES: Record<Locale, Record<ServerMessageKey, string>> = {
  en: serverEn,
  es: serverEs,
};

/** Formats one of the gateway's messages in a language. */
export type Translate = (key: ServerMessageKey, values?: MessageValues) => string;

/** `t` for one reader: the gateway's messages (server-en.ts) in their language. */
export function translator(locale: Locale): Translate {
  const messages = SERVER_MESSAGES[locale];
  return (key, values) => formatMessage(messages[key], locale, values);
}
