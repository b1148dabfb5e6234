import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "./webhooks.ts";

// The webhook SSRF guard judges parsed ranges: every spelling of a private address is private, and the
// same forms around a public address stay deliverable (the check does not simply refuse IPv6).
describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "169.254.169.254",
    "172.31.255.255",
    "192.168.1.1",
    "198.18.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::127.0.0.1",
    "::8.8.8.8", // IPv4-compatible: deprecated, refused whatever it carries
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:0:127.0.0.1",
    "::ffff:0:a00:1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::c0a8:101",
    "64:ff9b:1::808:808", // NAT64 local use: an operator's own network
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "2001:db8::1", // documentation
    "not an address",
  ])("%s is private", (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "::ffff:8.8.8.8",
    "::ffff:0:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "2606:4700:4700::1111",
  ])("%s is public", (address) => expect(isPrivateAddress(address)).toBe(false));
});
