import { bcv_parser } from "bible-passage-reference-parser/esm/bcv_parser.js";
import * as en from "bible-passage-reference-parser/esm/lang/en.js";
import * as es from "bible-passage-reference-parser/esm/lang/es.js";

/**
 * Scripture references with the Open Bible parser (bible-passage-reference-parser): "John 3:16-21;
 * Rom 8" or Spanish "Jn 3:16; Romanos 8" → OSIS ("John.3.16-John.3.21,Rom.8"), the books named, and
 * readable text in English or Spanish. The OSIS is what is stored; the text is made from it.
 */

// [OSIS, English, Spanish] in canonical order.
const BOOKS: [string, string, string][] = [
  ["Gen", "Genesis", "Génesis"],
  ["Exod", "Exodus", "Éxodo"],
  ["Lev", "Leviticus", "Levítico"],
  ["Num", "Numbers", "Números"],
  ["Deut", "Deuteronomy", "Deuteronomio"],
  ["Josh", "Joshua", "Josué"],
  ["Judg", "Judges", "Jueces"],
  ["Ruth", "Ruth", "Rut"],
  ["1Sam", "1 Samuel", "1 Samuel"],
  ["2Sam", "2 Samuel", "2 Samuel"],
  ["1Kgs", "1 Kings", "1 Reyes"],
  ["2Kgs", "2 Kings", "2 Reyes"],
  ["1Chr", "1 Chronicles", "1 Crónicas"],
  ["2Chr", "2 Chronicles", "2 Crónicas"],
  ["Ezra", "Ezra", "Esdras"],
  ["Neh", "Nehemiah", "Nehemías"],
  ["Esth", "Esther", "Ester"],
  ["Job", "Job", "Job"],
  ["Ps", "Psalms", "Salmos"],
  ["Prov", "Proverbs", "Proverbios"],
  ["Eccl", "Ecclesiastes", "Eclesiastés"],
  ["Song", "Song of Songs", "Cantares"],
  ["Isa", "Isaiah", "Isaías"],
  ["Jer", "Jeremiah", "Jeremías"],
  ["Lam", "Lamentations", "Lamentaciones"],
  ["Ezek", "Ezekiel", "Ezequiel"],
  ["Dan", "Daniel", "Daniel"],
  ["Hos", "Hosea", "Oseas"],
  ["Joel", "Joel", "Joel"],
  ["Amos", "Amos", "Amós"],
  ["Obad", "Obadiah", "Abdías"],
  ["Jonah", "Jonah", "Jonás"],
  ["Mic", "Micah", "Miqueas"],
  ["Nah", "Nahum", "Nahúm"],
  ["Hab", "Habakkuk", "Habacuc"],
  ["Zeph", "Zephaniah", "Sofonías"],
  ["Hag", "Haggai", "Hageo"],
  ["Zech", "Zechariah", "Zacarías"],
  ["Mal", "Malachi", "Malaquías"],
  ["Matt", "Matthew", "Mateo"],
  ["Mark", "Mark", "Marcos"],
  ["Luke", "Luke", "Lucas"],
  ["John", "John", "Juan"],
  ["Acts", "Acts", "Hechos"],
  ["Rom", "Romans", "Romanos"],
  ["1Cor", "1 Corinthians", "1 Corintios"],
  ["2Cor", "2 Corinthians", "2 Corintios"],
  ["Gal", "Galatians", "Gálatas"],
  ["Eph", "Ephesians", "Efesios"],
  ["Phil", "Philippians", "Filipenses"],
  ["Col", "Colossians", "Colosenses"],
  ["1Thess", "1 Thessalonians", "1 Tesalonicenses"],
  ["2Thess", "2 Thessalonians", "2 Tesalonicenses"],
  ["1Tim", "1 Timothy", "1 Timoteo"],
  ["2Tim", "2 Timothy", "2 Timoteo"],
  ["Titus", "Titus", "Tito"],
  ["Phlm", "Philemon", "Filemón"],
  ["Heb", "Hebrews", "Hebreos"],
  ["Jas", "James", "Santiago"],
  ["1Pet", "1 Peter", "1 Pedro"],
  ["2Pet", "2 Peter", "2 Pedro"],
  ["1John", "1 John", "1 Juan"],
  ["2John", "2 John", "2 Juan"],
  ["3John", "3 John", "3 Juan"],
  ["Jude", "Jude", "Judas"],
  ["Rev", "Revelation", "Apocalipsis"],
];
const BY_OSIS = new Map(
  BOOKS.map(([osis, english, spanish], index) => [osis, { osis, english, spanish, index }]),
);

/** The 66 books in canonical order, for filters. */
export const BIBLE_BOOKS = BOOKS.map(([osis, english, spanish]) => ({ osis, english, spanish }));

export type ScriptureLocale = "en" | "es";

export interface ParsedScripture {
  /** Comma-separated OSIS ranges, e.g. "John.3.16-John.3.21,Rom.8". Empty when nothing was recognised. */
  osis: string;
  /** OSIS book codes named, in canonical order, without repeats. */
  books: string[];
}

let parsers: { en: bcv_parser; es: bcv_parser } | null = null;
function getParsers() {
  if (!parsers) {
    const make = (lang: typeof en) => {
      const parser = new bcv_parser(lang);
      // "Rom 8" stays "Rom.8"; "John 3:16-21; 4:1" are separate ranges.
      parser.set_options({
        consecutive_combination_strategy: "separate",
        invalid_passage_strategy: "ignore",
        sequence_combination_strategy: "separate",
      });
      return parser;
    };
    parsers = { en: make(en), es: make(es) };
  }
  return parsers;
}

/** Parse what an editor typed. English first, then Spanish ("Jn 3:16", "Romanos 8"); the one that recognises more wins. */
export function parseScripture(text: string): ParsedScripture {
  const input = text.slice(0, 500);
  const { en: english, es: spanish } = getParsers();
  const candidates = [english.parse(input).osis(), spanish.parse(input).osis()];
  const osis = candidates.reduce(
    (best, next) =>
      next.split(",").filter(Boolean).length > best.split(",").filter(Boolean).length ? next : best,
    candidates[0] ?? "",
  );
  const books = new Set<string>();
  for (const range of osis.split(",").filter(Boolean)) {
    for (const end of range.split("-")) {
      const book = end.split(".")[0]!;
      if (BY_OSIS.has(book)) books.add(book);
    }
  }
  return { osis, books: [...books].sort((a, b) => BY_OSIS.get(a)!.index - BY_OSIS.get(b)!.index) };
}

/** The stored form of the books filter: "|John|Rom|" (so `scriptureBooks ~ "|John|"` matches one book exactly). */
export const booksField = (books: string[]) => (books.length ? `|${books.join("|")}|` : "");

export const isBook = (osis: string) => BY_OSIS.has(osis);

const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
const BY_NAME = new Map<string, string>();
for (const [osis, english, spanish] of BOOKS)
  for (const name of [osis, english, spanish]) BY_NAME.set(fold(name), osis);
BY_NAME.set("psalm", "Ps");
BY_NAME.set("salmo", "Ps");

/**
 * The books a search names: a bare book name ("Juan", "romans", "Salmo") or references in it
 * ("Jn 3", "Rom 8:1"). Used so a search for "Romans" also finds sermons whose text says "Rom 8".
 */
export function booksInSearch(query: string): string[] {
  const byName = BY_NAME.get(fold(query));
  return [...new Set([...(byName ? [byName] : []), ...parseScripture(query).books])];
}

export function bookName(osis: string, locale: ScriptureLocale): string {
  const book = BY_OSIS.get(osis);
  if (!book) return osis;
  return locale === "es" ? book.spanish : book.english;
}

/** One OSIS range as readable text: "John.3.16-John.3.21" → "John 3:16–21", "Rom.8" → "Romans 8". */
export function formatRange(range: string, locale: ScriptureLocale): string {
  const [startText, endText] = range.split("-");
  const parse = (part: string) => {
    const [b, c, v] = part.split(".");
    return { b: b!, c, v };
  };
  const start = parse(startText!);
  const head = (p: { b: string; c?: string; v?: string }) =>
    [bookName(p.b, locale), p.c ? (p.v ? `${p.c}:${p.v}` : p.c) : ""].filter(Boolean).join(" ");
  if (!endText) return head(start);
  const end = parse(endText);
  if (end.b !== start.b) return `${head(start)} – ${head(end)}`;
  if (!start.c || !end.c) return head(start);
  if (start.c === end.c && start.v && end.v) return `${head(start)}–${end.v}`;
  if (start.v || end.v) return `${head(start)}–${end.c}:${end.v ?? ""}`.replace(/:$/, "");
  return `${head(start)}–${end.c}`;
}

/** Stored OSIS → "John 3:16–21; Romans 8" (or in Spanish "Juan 3:16–21; Romanos 8"). */
export function formatScripture(osis: string, locale: ScriptureLocale): string {
  return osis
    .split(",")
    .filter(Boolean)
    .map((range) => formatRange(range, locale))
    .join("; ");
}
