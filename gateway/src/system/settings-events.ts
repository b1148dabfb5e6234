import PocketBase from "pocketbase";
import { EventSource } from "eventsource";
import { Repeater } from "graphql-yoga";
import type { SettingsRecord } from "../pocketbase/records.ts";

// Node 20 has no EventSource; the PocketBase SDK needs one for realtime.
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

/**
 * Live settings changes for `Subscription.settingsChanged`. Settings are public, so one shared
 * guest realtime connection to PocketBase serves every subscriber (PocketBase still applies the
 * collection's rules to it); it opens with the first subscriber and closes after the last.
 * The general per-viewer bridge for private data is built by the realtime issue.
 */
export class SettingsEvents {
  private readonly listeners = new Set<(record: SettingsRecord) => void>();
  private readonly observers = new Set<(record: SettingsRecord) => void>();
  private pb: PocketBase | null = null;
  private unsubscribe: Promise<() => Promise<void>> | null = null;

  private readonly pbUrl: string;

  constructor(pbUrl: string) {
    this.pbUrl = pbUrl;
  }

  /** Also tell `observer` about every change seen while subscribers keep the connection open. */
  onChange(observer: (record: SettingsRecord) => void): void {
    this.observers.add(observer);
  }

  subscribe(): Repeater<SettingsRecord> {
    return new Repeater<SettingsRecord>(async (push, stop) => {
      const listener = (record: SettingsRecord) => void push(record);
      this.listeners.add(listener);
      this.ensureConnected();
      await stop;
      this.listeners.delete(listener);
      if (this.listeners.size === 0) await this.disconnect();
    });
  }

  private ensureConnected(): void {
    if (this.unsubscribe) return;
    this.pb = new PocketBase(this.pbUrl);
    this.pb.autoCancellation(false);
    this.unsubscribe = this.pb.collection("settings").subscribe<SettingsRecord>("*", (event) => {
      for (const observer of this.observers) observer(event.record);
      for (const listener of this.listeners) listener(event.record);
    });
    this.unsubscribe.catch(() => {
      // PocketBase unreachable: let the next subscriber try again.
      this.unsubscribe = null;
    });
  }

  private async disconnect(): Promise<void> {
    const pending = this.unsubscribe;
    this.unsubscribe = null;
    try {
      await (
        await pending
      )?.();
    } catch {
      /* already gone */
    }
    this.pb?.realtime.unsubscribe().catch(() => undefined);
    this.pb = null;
  }
}
