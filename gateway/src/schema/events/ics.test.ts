import { describe, expect, it } from "vitest";
import { escapeText, foldLine, serialize, vtimezone } from "./ics.ts";

describe("iCalendar writer", () => {
  it("folds lines at 75 octets with a leading space, never inside a UTF-8 character", () => {
    const long = `SUMMARY:${"é".repeat(60)}`;
    const folded = foldLine(long);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((l) => l.startsWith(" "))).toBe(true);
    // Unfolding gives the original back.
    expect(folded.replace(/\r\n /g, "")).toBe(long);
    expect(foldLine("SHORT:line")).toBe("SHORT:line");
  });

  it("escapes backslashes, semicolons, commas and newlines in TEXT", () => {
    expect(escapeText("Lunch; bring a dish, please\\thanks\nSee you")).toBe(
      "Lunch\\; bring a dish\\, please\\\\thanks\\nSee you",
    );
  });

  it("ends every line with CRLF", () => {
    expect(serialize(["BEGIN:VCALENDAR", "END:VCALENDAR"])).toBe("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");
  });

  it("lists New York's real transitions in its VTIMEZONE", () => {
    const lines = vtimezone("America/New_York", 2026, 2026);
    expect(lines).toContain("TZID:America/New_York");
    const text = lines.join("\n");
    expect(text).toContain(
      "BEGIN:DAYLIGHT\nDTSTART:20260308T020000\nTZOFFSETFROM:-0500\nTZOFFSETTO:-0400\nEND:DAYLIGHT",
    );
    expect(text).toContain(
      "BEGIN:STANDARD\nDTSTART:20261101T020000\nTZOFFSETFROM:-0400\nTZOFFSETTO:-0500\nEND:STANDARD",
    );
  });

  it("writes one STANDARD component for a zone without transitions", () => {
    const text = vtimezone("Asia/Tokyo", 2026, 2027).join("\n");
    expect(text).toContain("TZOFFSETFROM:+0900\nTZOFFSETTO:+0900");
  });
});
