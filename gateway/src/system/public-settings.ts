import { createUserClient } from "../pocketbase/client.ts";
import type { SettingsRecord } from "../pocketbase/records.ts";
import { pbCall } from "../errors.ts";

/**
 * The church's settings are public and read by almost every request (the page HTML, the app shell).
 * They are read as a guest (the collection's list rule is public, so this is what anyone may see).
 * Concurrent requests share one read in flight ("single flight"), which removes most of the reads
 * under load while every read still starts after any write that finished before it. `ttlMs` > 0
 * would also keep the copy for a while; it is 0 because a change made elsewhere (the PocketBase
 * dashboard, another process) must show at once.
 */
export class PublicSettings {
  private value: SettingsRecord | null = null;
  private fetchedAt = 0;
  private pending: Promise<SettingsRecord> | null = null;

  private readonly pbUrl: string;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(pbUrl: string, ttlMs = 0, now: () => number = Date.now) {
    this.pbUrl = pbUrl;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  async get(): Promise<SettingsRecord> {
    if (this.value && this.now() - this.fetchedAt < this.ttlMs) return this.value;
    this.pending ??= this.load().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** Replace the copy with a record just written or received. */
  set(record: SettingsRecord): void {
    this.value = record;
    this.fetchedAt = this.now();
  }

  private async load(): Promise<SettingsRecord> {
    const pb = createUserClient(this.pbUrl, null);
    const page = await pbCall(() =>
      pb.collection("settings").getList<SettingsRecord>(1, 1, { skipTotal: true }),
    );
    const settings = page.items[0];
    if (!settings) throw new Error("The settings record is missing; run the migrations.");
    this.set(settings);
    return settings;
  }
}
