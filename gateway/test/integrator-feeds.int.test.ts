/**
 * What an integrator (a podcast directory, a calendar app, a church's own site) relies on in the feeds
 * and link-carrying fields (issue 23, item 10): ownership tags, absolute URLs, identifiers that survive
 * a change of domain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { system, testGateway } from "./helpers.ts";
import { createEvent, uniqueSlug } from "./event-support.ts";

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

describe("identifiers that survive a change of domain", () => {
  it("podcast:guid (all sermons and a series) and an event's iCalendar UID stay the same on a new domain, and are set once", async () => {
    const series = await su
      .collection("sermon_series")
      .create<{ id: string; slug: string }>({ title: "Moving series", slug: uniqueSlug("moving") });
    const event = await createEvent({ title: "Moving event" });
    const read = async (origin: string) => {
      const text = async (path: string) => (await fetch(`${origin}${path}`)).text();
      const guid = (xml: string) => /<podcast:guid>([^<]+)<\/podcast:guid>/.exec(xml)?.[1];
      const ics = (await text("/feeds/events.ics")).replace(/\r\n /g, "");
      const uid = ics
        .split("BEGIN:VEVENT")
        .find((block) => block.includes("SUMMARY:Moving event"))
        ?.match(/UID:(.+)/)?.[1];
      return {
        all: guid(await text("/feeds/sermons.xml")),
        series: guid(await text(`/feeds/series/${series.slug}.xml`)),
        uid,
      };
    };
    const before = await read(base);
    expect(before.all).toBeTruthy();
    expect(before.series).toBeTruthy();
    expect(before.uid).toMatch(new RegExp(`^event-${event.id}@flock\\.test$`));
    const moved = await testGateway({ publicUrl: "https://new-domain.example" });
    try {
      const after = await read(await moved.listen());
      expect(after).toEqual(before);
    } finally {
      await moved.close();
    }
    // Stored, and kept when a write tries to change them.
    const stored = await su.collection("events").getOne<{ icalUid: string }>(event.id);
    expect(stored.icalUid).toBe(before.uid);
    await su.collection("events").update(event.id, { icalUid: "something-else" });
    await su.collection("sermon_series").update(series.id, { podcastGuid: "something-else" });
    expect((await su.collection("events").getOne(event.id)).icalUid).toBe(before.uid);
    expect((await su.collection("sermon_series").getOne(series.id)).podcastGuid).toBe(before.series);
  });
});
