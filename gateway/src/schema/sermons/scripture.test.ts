import { describe, expect, it } from "vitest";
import { booksField, formatScripture, parseScripture } from "./scripture.ts";

describe("scripture references", () => {
  it("parses English references, normalises them and names the books", () => {
    const parsed = parseScripture("John 3:16-21; Rom 8");
    expect(parsed.osis).toBe("John.3.16-John.3.21,Rom.8");
    expect(parsed.books).toEqual(["John", "Rom"]);
    expect(formatScripture(parsed.osis, "en")).toBe("John 3:16–21; Romans 8");
    expect(formatScripture(parsed.osis, "es")).toBe("Juan 3:16–21; Romanos 8");
  });

  it("parses Spanish abbreviations", () => {
    expect(parseScripture("Jn 3:16").osis).toBe("John.3.16");
    const psalm = parseScripture("Salmo 23; Romanos 12:1-2");
    expect(psalm.books).toEqual(["Ps", "Rom"]);
    expect(formatScripture(psalm.osis, "en")).toBe("Psalms 23; Romans 12:1–2");
  });

  it("formats ranges across chapters and books", () => {
    expect(formatScripture("Gen.1.1-Gen.2.3", "en")).toBe("Genesis 1:1–2:3");
    expect(formatScripture("Matt.5-Matt.7", "en")).toBe("Matthew 5–7");
    expect(formatScripture("Jude", "en")).toBe("Jude");
  });

  it("recognises nothing in text that is not a reference", () => {
    expect(parseScripture("hello world").osis).toBe("");
    expect(parseScripture("").books).toEqual([]);
    expect(booksField([])).toBe("");
    expect(booksField(["John", "Rom"])).toBe("|John|Rom|");
  });
});

describe("books named in a search", () => {
  it("knows bare book names in English and Spanish, and references", async () => {
    const { booksInSearch } = await import("./scripture.ts");
    expect(booksInSearch("Juan")).toEqual(["John"]);
    expect(booksInSearch("romans")).toEqual(["Rom"]);
    expect(booksInSearch("Génesis")).toEqual(["Gen"]);
    expect(booksInSearch("Jn 3:16")).toEqual(["John"]);
    expect(booksInSearch("grace")).toEqual([]);
  });
});
