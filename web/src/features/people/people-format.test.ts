import { describe, expect, it } from "vitest";
import { initials } from "./Avatar.tsx";
import { addressLines } from "./address.tsx";
import { todayIn } from "../../i18n/format.ts";

describe("directory formatting", () => {
  it("takes initials from the words that name someone", () => {
    expect(initials("María José Núñez")).toBe("MN");
    expect(initials("The Garcia family")).toBe("G");
    expect(initials("Familia García López")).toBe("GL");
    expect(initials("Cher")).toBe("C");
    expect(initials("  ")).toBe("");
  });

  it("writes an address as envelope lines, the country only when it is foreign", () => {
    const address = {
      street1: "14 Oak Street",
      street2: "",
      city: "Springfield",
      region: "IL",
      postalCode: "62704",
      country: "US",
    };
    expect(addressLines(address, "en")).toEqual(["14 Oak Street", "Springfield, IL 62704"]);
    expect(addressLines({ ...address, street2: "Apt 3", region: null, country: "MX" }, "es")).toEqual([
      "14 Oak Street",
      "Apt 3",
      "Springfield, 62704",
      "México",
    ]);
  });

  it("knows today's date in the church's zone, not the browser's", () => {
    const instant = new Date("2026-03-01T03:30:00Z"); // still February 28 in Chicago
    expect(todayIn("America/Chicago", instant)).toBe("2026-02-28");
    expect(todayIn("Europe/Madrid", instant)).toBe("2026-03-01");
  });
});
