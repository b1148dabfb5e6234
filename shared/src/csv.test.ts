import { describe, expect, it } from "vitest";
import { csvCell, parseCsv, toCsv } from "./csv.ts";

describe("CSV", () => {
  it("quotes separators and neutralises formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('Smith, "Bob"')).toBe('"Smith, ""Bob"""');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+15551234567")).toBe("'+15551234567");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell(null)).toBe("");
    expect(toCsv(["a", "b"], [["1", "x\ny"]])).toBe('a,b\r\n1,"x\ny"\r\n');
  });

  it("reads back what spreadsheets write: quotes, commas and line breaks in cells, CRLF or LF, a BOM", () => {
    const text =
      '\uFEFFdate,note\r\n2026-01-04,"Smith, ""Bob"""\r\n\r\n2026-01-11,"two\nlines"\n2026-01-18,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ["date", "note"] },
      { line: 2, cells: ["2026-01-04", 'Smith, "Bob"'] },
      { line: 4, cells: ["2026-01-11", "two\nlines"] },
      { line: 6, cells: ["2026-01-18", ""] },
    ]);
    expect(parseCsv(toCsv(["a", "b"], [["=1+1", "x,y"]]))).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["'=1+1", "x,y"] },
    ]);
    expect(parseCsv("a,b")).toEqual([{ line: 1, cells: ["a", "b"] }]);
    expect(parseCsv("")).toEqual([]);
    expect(parseCsv('a,"never closed\n')).toBeNull();
  });
});
