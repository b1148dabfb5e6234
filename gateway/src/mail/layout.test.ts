import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { authTemplates, encodeForComment, TEXT_MARKER_END, TEXT_MARKER_START } from "./auth-templates.ts";
import { accessibleColor, formatWallTime, type Brand } from "./brand.ts";
import { htmlPart, textPart } from "./layout.ts";

// The hook's library is a CommonJS file for PocketBase's JS engine: loaded here as PocketBase loads it.
const hookModule = { exports: {} as { useTextPart(message: { html: string; text: string }): void } };
new Function("module", readFileSync(new URL("../../../pb_hooks/lib/mail-text.js", import.meta.url), "utf8"))(
  hookModule,
);
const { useTextPart } = hookModule.exports;

const brand: Brand = {
  churchName: `St. <Mark> & "Paul's" -- Church`,
  logoUrl: null,
  color: accessibleColor("#ffcc00"),
  siteUrl: "https://church.example",
  address: "1 Chapel Road\nSpringfield",
  locale: "en",
  timezone: "America/Chicago",
};

describe("the branded layout", () => {
  it("escapes every value in the HTML part and keeps the text part plain", () => {
    const content = {
      text: "Hello <b>you</b> & welcome",
      button: { url: "https://church.example/x?a=1&b=2", label: "Go <now>" },
    };
    const html = htmlPart(content, brand, "Subject <i>");
    expect(html).not.toContain("<Mark>");
    expect(html).toContain("St. &lt;Mark&gt; &amp; &quot;Paul&#39;s&quot;");
    expect(html).toContain('href="https://church.example/x?a=1&amp;b=2"');
    expect(html).toContain("Hello &lt;b&gt;you&lt;/b&gt;");
    const text = textPart(content, brand);
    expect(text).toBe(
      `Hello <b>you</b> & welcome\n\nGo <now>:\nhttps://church.example/x?a=1&b=2\n\n—\n${brand.churchName}\n1 Chapel Road\nSpringfield\nhttps://church.example\n`,
    );
  });

  it("uses the darkened brand colour (white text on it reaches 4.5:1), like the site", () => {
    expect(accessibleColor("#ffcc00")).not.toBe("#ffcc00");
    expect(accessibleColor("#2f5d8a")).toBe("#2f5d8a");
    expect(accessibleColor("not a colour")).toBe("#2f5d8a");
  });

  it("writes times as the site does", () => {
    expect(formatWallTime("09:00", "en")).toBe("9:00 AM");
    expect(formatWallTime("18:30", "en")).toBe("6:30 PM");
    expect(formatWallTime("18:30", "es")).toBe("18:30");
  });
});

describe("PocketBase's auth mails", () => {
  it("carry their text part in a comment that the mail hook moves out, intact", () => {
    const { verificationTemplate } = authTemplates(brand);
    expect(verificationTemplate.body.indexOf("-->")).toBe(verificationTemplate.body.lastIndexOf("-->"));
    // As PocketBase would: replace {TOKEN} (a JWT has "-" and "_"), then call the hook.
    const message = { html: verificationTemplate.body.replaceAll("{TOKEN}", "abc-_.x--y"), text: "" };
    useTextPart(message);
    expect(message.html).not.toContain("flock:text");
    expect(message.html).toContain('href="https://church.example/verify-email?token=abc-_.x--y"');
    expect(message.text).toContain(`Welcome to ${brand.churchName}!`);
    expect(message.text).toContain("Confirm my email:\nhttps://church.example/verify-email?token=abc-_.x--y");
    expect(message.text).not.toMatch(/\[[^\]]*\]\(/);
  });

  it("are written in the church's language (PocketBase keeps one template for everyone)", () => {
    const spanish = authTemplates({ ...brand, churchName: "Iglesia Gracia", locale: "es" });
    expect(spanish.verificationTemplate.subject).toBe("Confirma tu correo para Iglesia Gracia");
    expect(spanish.verificationTemplate.body).toContain("Confirmar mi correo");
    expect(spanish.verificationTemplate.body).toContain('<html lang="es">');
    expect(spanish.resetPasswordTemplate.subject).toBe("Restablece tu contraseña de Iglesia Gracia");
    expect(spanish.authAlert.emailTemplate.body).toContain("{ALERT_INFO}");
    expect(authTemplates(brand).verificationTemplate.subject).toBe(
      `Confirm your email for ${brand.churchName}`,
    );
  });

  it("the comment encoding never lets '-->' or '--' through", () => {
    const encoded = encodeForComment("a --> b -- c & d <e>");
    expect(encoded).not.toMatch(/--|>|</);
    const message = { html: `<p>x</p>${TEXT_MARKER_START}${encoded}${TEXT_MARKER_END}`, text: "" };
    useTextPart(message);
    expect(message.text).toBe("a --> b -- c & d <e>");
    expect(message.html).toBe("<p>x</p>");
  });
});
