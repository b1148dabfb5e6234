import { describe, expect, it } from "vitest";
import { compileMessage } from "./compile.ts";
import { formatMessage, type Locale } from "./format.ts";
import { formatCompiled } from "./render.ts";

/** The web runtime's text and the library's, for one message and one set of values. */
function both(message: string, locale: Locale, values: Record<string, string | number>) {
  return {
    web: formatCompiled(compileMessage(message), locale, values),
    library: formatMessage(message, locale, values),
  };
}

describe("the web app's ICU runtime", () => {
  it("gives intl-messageformat's text for plurals, exact matches, offsets, ordinals, selects and numbers", () => {
    const messages = [
      "{count, plural, =0 {nobody yet} one {# person prayed} other {# people prayed}}",
      "{count, plural, offset:1 =0 {nobody} =1 {{name}} one {{name} and # other} other {{name} and # others}}",
      "{place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
      "{kind, select, group {a group} event {an event} other {something}}: {count, number} new",
      "It''s {name}'s turn, '{'literally'}'",
      "{kind, select, group {{count, plural, one {# group} other {# groups}}} other {none}}",
    ];
    for (const message of messages)
      for (const locale of ["en", "es"] as const)
        for (const count of [0, 1, 2, 3, 11, 21, 1234, 1000000])
          for (const kind of ["group", "event", "party"]) {
            const { web, library } = both(message, locale, { count, place: count, kind, name: "Ann" });
            expect(web, `${message} (${locale}, ${count}, ${kind})`).toBe(library);
          }
    expect(both("{count, plural, one {# post} other {# posts}}", "en", { count: 1234 }).web).toBe(
      "1,234 posts",
    );
    expect(both("{count, plural, one {# post} other {# posts}}", "es", { count: 1234 }).web).toBe(
      "1234 posts",
    );
  });

  it("refuses a value the message needs and did not get, as the library does", () => {
    const message = compileMessage("{count, plural, one {# post} other {# posts}} by {name}");
    expect(() => formatCompiled(message, "en", { count: 2 })).toThrow(/name/);
    expect(() =>
      formatMessage("{count, plural, one {# post} other {# posts}} by {name}", "en", { count: 2 }),
    ).toThrow();
  });

  it("fails the build on an element it does not format", () => {
    expect(() => compileMessage("Opens {day, date, short}", "events.opens")).toThrow(/events\.opens/);
    expect(() => compileMessage("{share, number, percent}")).toThrow(/does not format/);
    expect(() => compileMessage("Read <b>this</b>")).toThrow(/does not format/);
    expect(compileMessage("Plain {name}")).toBe("Plain {name}");
  });
});
