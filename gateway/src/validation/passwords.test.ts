import { describe, expect, it } from "vitest";
import { checkPassword } from "./passwords.ts";

const code = (password: string, email?: string) => checkPassword(password, { email })?.code ?? null;
const bytes = (value: string) => Buffer.byteLength(value, "utf8");

describe("checkPassword (PRODUCT.md §6)", () => {
  it("accepts a long, uncommon passphrase", () => {
    expect(checkPassword("a long enough secret")).toBeNull();
    expect(code("kx7!pq2zrm")).toBeNull(); // exactly 10
  });

  it("needs at least 10 characters, counted as characters rather than UTF-16 units", () => {
    expect(code("kx7!pq2zr")).toBe("password_too_short");
    expect(code("")).toBe("password_too_short");
    const nineEmoji = "🔑🌿🕊️⛪🎵🍞🍷🕯️📖".replace(/\uFE0F/g, ""); // 9 characters, 17 UTF-16 units
    expect([...nineEmoji]).toHaveLength(9);
    expect(code(nineEmoji)).toBe("password_too_short");
    expect(code(`${nineEmoji}x`)).toBeNull();
  });

  it("allows at most 71 bytes (bcrypt reads only 72), also with multi-byte characters", () => {
    const ascii71 = "correct horse battery staple ".repeat(3).slice(0, 71);
    expect(bytes(ascii71)).toBe(71);
    expect(code(ascii71)).toBeNull();
    expect(code(`${ascii71}x`)).toBe("password_too_long");

    const umlauts = `${"ü".repeat(30)}${"x".repeat(11)}`; // 41 characters, 71 bytes
    expect(bytes(umlauts)).toBe(71);
    expect(code(umlauts)).toBeNull();
    expect(code(`${umlauts}x`)).toBe("password_too_long"); // 42 characters, 72 bytes

    const keys = `${"🔑".repeat(17)}abc`; // 20 characters, 71 bytes
    expect(bytes(keys)).toBe(71);
    expect(code(keys)).toBeNull();
    expect(code(`${"🔑".repeat(18)}`)).toBe("password_too_long"); // only 18 characters, but 72 bytes
  });

  it.each(["password123", "Password123", "HALLELUJAH", "jesuslovesme", "qwertyuiop", "1q2w3e4r5t"])(
    "refuses the common password %s",
    (password) => {
      expect(code(password)).toBe("password_common");
    },
  );

  it.each([
    ["one repeated character", "zzzzzzzzzzzz"],
    ["one repeated emoji", "🔑".repeat(12)],
    ["digits only", "20261122123"],
  ])("refuses %s", (_, password) => {
    expect(code(password)).toBe("password_common");
  });

  it("refuses a password containing the email's local part (4+ characters), in any case", () => {
    expect(code("JohnSmith-rocks", "johnsmith@grace.example")).toBe("password_common");
    expect(code("my ruth password", "RUTH@grace.example")).toBe("password_common");
    expect(code("a long enough secret", "johnsmith@grace.example")).toBeNull();
    // Short local parts would refuse too much.
    expect(code("abc-is-my-favourite", "abc@grace.example")).toBeNull();
  });

  it("reports the length problem before the others", () => {
    expect(code("password")).toBe("password_too_short");
  });

  it("gives a message for the form", () => {
    expect(checkPassword("short")?.message).toBe("Use at least 10 characters.");
    expect(checkPassword("x".repeat(80))?.message).toBe("Use at most 71 bytes.");
  });
});
