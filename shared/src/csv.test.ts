import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv.ts";

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
});
