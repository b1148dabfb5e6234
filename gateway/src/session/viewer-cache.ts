import type { UserRecord } from "../pocketbase/records.ts";

interface Entry {
  user: UserRecord;
  /** The fresh token PocketBase issued when it verified this one (for the sliding session). */
  freshToken: string;
  expiresAt: number;
}

/**
 * Who a token belongs to, remembered for a few seconds so a page's burst of requests costs one
 * auth-refresh round trip instead of one each (it was the largest share of the gateway's overhead,
 * see `npm run bench`). Safe because it only shapes the viewer's view and error messages: every data
 * call still carries the token and PocketBase's rules decide. Sign-out, password change, suspension
 * and role changes in this process forget the user at once.
 *
 * A minute, not a few seconds: members read a page about every 5 s, so with 10 s every other page
 * view paid an auth-refresh, PocketBase's largest cost in the Sunday scenario (`npm run bench --
 * --scenario=sunday --keep-data`, request log: 462 auth-refreshes, more time than any list).
 */
export class ViewerCache {
  private readonly entries = new Map<string, Entry>();

  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(ttlMs = 60_000, maxEntries = 10_000, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  get(token: string): Entry | null {
    const entry = this.entries.get(token);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(token);
      return null;
    }
    return entry;
  }

  set(token: string, user: UserRecord, freshToken: string): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, { user, freshToken, expiresAt: this.now() + this.ttlMs });
  }

  forgetToken(token: string | null): void {
    if (token) this.entries.delete(token);
  }

  forgetUser(userId: string): void {
    for (const [token, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(token);
  }
}
