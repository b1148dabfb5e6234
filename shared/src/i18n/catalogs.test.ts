import { describe, expect, it } from "vitest";
import { argumentsOf, compileMessage, parseMessage } from "./compile.ts";
import { formatCompiled, formatMessage, pickLocale } from "./format.ts";
import { serverEn } from "./server-en.ts";
import { serverEs } from "./server-es.ts";
import { translator } from "./server.ts";

describe("the gateway's message catalogs", () => {
  const keys = Object.keys(serverEn) as Array<keyof typeof serverEn>;

  it("Spanish has every English key and no other, each with the same placeholders", () => {
    expect(Object.keys(serverEs).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      expect(serverEs[key], key).toBeTruthy();
      expect(argumentsOf(serverEs[key]), key).toEqual(argumentsOf(serverEn[key]));
    }
  });

  it("every message is valid ICU in both languages", () => {
    for (const key of keys) {
      expect(() => parseMessage(serverEn[key], key)).not.toThrow();
      expect(() => parseMessage(serverEs[key], key)).not.toThrow();
    }
  });

  it("counts read correctly in English and Spanish", () => {
    const en = translator("en");
    const es = translator("es");
    expect(en("digest.title", { count: 1 })).toBe("Daily digest: 1 new item");
    expect(en("digest.title", { count: 3 })).toBe("Daily digest: 3 new items");
    expect(es("digest.title", { count: 1 })).toBe("Resumen diario: 1 elemento nuevo");
    expect(es("digest.title", { count: 12 })).toBe("Resumen diario: 12 elementos nuevos");
    expect(en("invitation.link", { days: 1 })).toContain("(it works for 1 day)");
    expect(es("invitation.link", { days: 14 })).toContain("(funciona durante 14 días)");
    expect(en("alert.visit.summary", { name: "Ann", hasDate: "yes", date: "2026-05-03", party: 1 })).toBe(
      "Ann plans a visit for 2026-05-03.",
    );
    expect(en("alert.visit.summary", { name: "Ann", hasDate: "no", date: "", party: 3 })).toBe(
      "Ann plans a visit (a party of 3).",
    );
    expect(es("alert.visit.summary", { name: "Ana", hasDate: "no", date: "", party: 3 })).toBe(
      "Ana planea una visita (un grupo de 3).",
    );
  });

  it("keeps apostrophes and quotes as written", () => {
    expect(translator("en")("auth.alert.button")).toBe("It wasn't me: reset my password");
    expect(translator("en")("invitation.body", { inviter: "Ann", household: "Lee", church: "Grace" })).toBe(
      "Ann invited you to join the household “Lee” in Grace's app.",
    );
  });
});

describe("formatting", () => {
  it("picks the reader's own language, else the church's, else English", () => {
    expect(pickLocale("es", "en")).toBe("es");
    expect(pickLocale("", "es")).toBe("es");
    expect(pickLocale(null, "")).toBe("en");
    expect(pickLocale("fr", "de")).toBe("en");
  });

  it("gives the same text from a message string and from its precompiled form", () => {
    const messages = [
      "Welcome to {church}",
      "{count, plural, one {# person prayed} other {# people prayed}}",
      "It''s {name}'s turn",
      "Use '{'braces'}'",
    ];
    for (const message of messages) {
      for (const count of [0, 1, 2, 1234]) {
        const values = { church: "Grace", count, name: "Ann" };
        expect(formatCompiled(compileMessage(message), "en", values)).toBe(
          formatMessage(message, "en", values),
        );
        expect(formatCompiled(compileMessage(message), "es", values)).toBe(
          formatMessage(message, "es", values),
        );
      }
    }
    expect(compileMessage("Welcome to {church}")).toBe("Welcome to {church}");
    expect(Array.isArray(compileMessage("It''s"))).toBe(true);
  });
});
