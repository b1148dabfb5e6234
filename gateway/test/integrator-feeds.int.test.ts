/**
 * What an integrator (a podcast directory, a calendar app, a church's own site) relies on in the feeds
 * and link-carrying fields (issue 23, item 10): ownership tags, absolute URLs, identifiers that survive
 * a change of domain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { system, testGateway } from "./helpers.ts";

let gateway: Gateway;
let base: string;
let su: PocketBase;
let settings: { id: string; email: string };
const OWNER = "podcast-owner@grace.example";

beforeAll(async () => {
  su = await system();
  settings = await su.collection("settings").getFirstListItem<{ id: string; email: string }>("");
  // Before the gateway starts, so its settings are read with this address.
  await su.collection("settings").update(settings.id, { email: OWNER });
  gateway = await testGateway();
  base = await gateway.listen();
});
afterAll(async () => {
  await su.collection("settings").update(settings.id, { email: settings.email });
  await gateway.close();
});

describe("podcast feed", () => {
  it("podcast:locked names its owner, the church's email (Podcasting 2.0)", async () => {
    const xml = await (await fetch(`${base}/feeds/sermons.xml`)).text();
    expect(xml).toMatch(/<podcast:locked owner="podcast-owner@grace\.example">no<\/podcast:locked>/);
  });
});
