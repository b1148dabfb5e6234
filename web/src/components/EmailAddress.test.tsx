import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailAddress } from "./EmailAddress.tsx";

describe("EmailAddress", () => {
  it("may wrap before the @ and before each dot, and nowhere inside a name", () => {
    expect(renderToStaticMarkup(<EmailAddress email="maria.alvarez@example.com" />)).toBe(
      "maria<wbr/>.alvarez<wbr/>@example<wbr/>.com",
    );
    expect(renderToStaticMarkup(<EmailAddress email="a@b" />)).toBe("a<wbr/>@b");
  });
});
