// Autosave for the content editors: nothing typed is lost.
//
// Kept outside React (a small state machine with a listener) so the rules are easy to read and unit
// tested with fake timers (autosave.test.ts):
// - every change is written to localStorage at once; the copy is removed only after the server has
//   that exact text;
// - a save starts `delayMs` after the last change; one save at a time, each sending the revision the
//   previous one returned (expectedRevision), so a tab never conflicts with itself;
// - failures the network or the server cause are retried with backoff (1 s, 2 s, 4 s … 30 s); while
//   the browser is offline nothing is tried until the `online` event;
// - a newer revision on the server (stale_revision) stops autosaving until the editor chooses.
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import type { UiError } from "../../lib/handleError.ts";

/** The other version, sent by the gateway with a stale_revision conflict. */
export interface TheirVersion {
  revision: number;
  title: string;
  body: string;
  updated: string;
}

export type SaveStatus =
  | { kind: "idle" }
  | { kind: "pending" }
  | { kind: "saving" }
  | { kind: "saved" }
  | { kind: "offline" }
  | { kind: "retrying"; error: UiError }
  | { kind: "conflict"; theirs: TheirVersion }
  /** The server refused the content (validation, slug taken…): retried after the next change. */
  | { kind: "invalid"; error: UiError }
  /** Refused for a reason a retry cannot fix (no permission, deleted…): the local copy stays. */
  | { kind: "failed"; error: UiError };

/** What is kept in localStorage for a document. */
export interface LocalCopy<T> {
  input: T;
  /** The revision these changes started from (a restore saves against it, so conflicts show). */
  baseRevision: number;
  /** When the copy was written (ISO). */
  at: string;
  /** The tab that wrote it: another tab of the same document does not remove it. */
  tab: string;
}

/** What a discarded side of a conflict is kept as (key `<storageKey>-conflict`). */
export interface KeptVersion {
  whose: "mine" | "theirs";
  title: string;
  body: string;
  at: string;
}

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export interface AutosaveOptions<T> {
  storageKey: string;
  /** The server's revision and content when the editor opened. */
  revision: number;
  saved: T;
  /** Save `input`; resolve with the revision the server now has. */
  save(input: T, expectedRevision: number): Promise<number>;
  /** Turn a failure into a code and a translated message (lib/handleError). */
  describe(error: unknown): UiError;
  delayMs?: number;
  storage?: StorageLike | null;
  isOnline?(): boolean;
}

const RETRY_MAX_MS = 30_000;
/** Refusals that a retry cannot change: the editor has to act (or cannot). */
const NEEDS_EDITOR = new Set(["BAD_USER_INPUT", "CONFLICT", "PAYLOAD_TOO_LARGE"]);
const NOT_RETRIED = new Set(["FORBIDDEN", "UNAUTHENTICATED", "NOT_FOUND"]);

const TAB_ID = Math.random().toString(36).slice(2);

function defaultStorage(): StorageLike | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage disabled by the browser: autosave still works, the local copy does not
  }
}

/** The newer version when `error` is the gateway's stale_revision conflict, else null. */
export function staleRevisionOf(error: unknown): TheirVersion | null {
  if (!CombinedGraphQLErrors.is(error)) return null;
  const extensions = (error.errors[0]?.extensions ?? {}) as Record<string, unknown>;
  if (extensions.code !== "CONFLICT" || extensions.reason !== "stale_revision") return null;
  return {
    revision: Number(extensions.currentRevision),
    title: String(extensions.currentTitle ?? ""),
    body: String(extensions.currentBody ?? ""),
    updated: String(extensions.currentUpdated ?? ""),
  };
}

export function readLocalCopy<T>(
  storageKey: string,
  storage: StorageLike | null = defaultStorage(),
): LocalCopy<T> | null {
  try {
    const raw = storage?.getItem(storageKey);
    if (!raw) return null;
    const copy = JSON.parse(raw) as LocalCopy<T>;
    return copy && typeof copy === "object" && "input" in copy ? copy : null;
  } catch {
    return null;
  }
}

export function readKeptVersion(
  storageKey: string,
  storage: StorageLike | null = defaultStorage(),
): KeptVersion | null {
  try {
    const raw = storage?.getItem(`${storageKey}-conflict`);
    return raw ? (JSON.parse(raw) as KeptVersion) : null;
  } catch {
    return null;
  }
}

export function forgetKeptVersion(storageKey: string, storage: StorageLike | null = defaultStorage()): void {
  try {
    storage?.removeItem(`${storageKey}-conflict`);
  } catch {
    /* nothing to forget */
  }
}

export function removeLocalCopy(storageKey: string, storage: StorageLike | null = defaultStorage()): void {
  try {
    storage?.removeItem(storageKey);
  } catch {
    /* nothing to remove */
  }
}

export class Autosave<T extends { title: string; body: string }> {
  private draft: T;
  private savedJson: string;
  private revision: number;
  private status: SaveStatus = { kind: "idle" };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private attempt = 0;
  private theirs: TheirVersion | null = null;
  private disposed = false;
  private readonly listeners = new Set<(status: SaveStatus) => void>();
  private readonly storage: StorageLike | null;
  private readonly delayMs: number;
  /** Where this document's local copy lives; a new document moves it once it has an id (moveTo). */
  private storageKey: string;

  constructor(private readonly options: AutosaveOptions<T>) {
    this.storageKey = options.storageKey;
    this.draft = options.saved;
    this.savedJson = JSON.stringify(options.saved);
    this.revision = options.revision;
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    this.delayMs = options.delayMs ?? 1500;
  }

  get current(): SaveStatus {
    return this.status;
  }

  get currentRevision(): number {
    return this.revision;
  }

  /** Changes the server does not have yet (or a save still on its way). */
  get dirty(): boolean {
    return this.inFlight !== null || JSON.stringify(this.draft) !== this.savedJson;
  }

  subscribe(listener: (status: SaveStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The editor changed something: keep it on this device now, save it soon. */
  update(draft: T): void {
    this.draft = draft;
    if (JSON.stringify(draft) === this.savedJson) {
      this.clearTimer();
      this.removeOwnCopy();
      if (!this.inFlight && !this.theirs)
        this.setStatus(this.status.kind === "idle" ? { kind: "idle" } : { kind: "saved" });
      return;
    }
    this.writeLocalCopy();
    if (this.theirs) return; // a conflict waits for the editor's choice; the text stays on this device
    if (this.status.kind !== "offline" && this.status.kind !== "retrying" && !this.inFlight)
      this.setStatus({ kind: "pending" });
    this.attempt = 0;
    this.schedule(this.delayMs);
  }

  /**
   * Save now (before publishing, for instance). Resolves true when the server has the current text.
   */
  async flush(): Promise<boolean> {
    // A few rounds at most: text typed while a save is on its way needs one more.
    for (let round = 0; round < 5; round++) {
      if (this.inFlight) {
        await this.inFlight;
        continue;
      }
      if (this.theirs || !this.dirty) break;
      this.clearTimer();
      await this.run();
      if (this.status.kind !== "saved" && this.status.kind !== "pending") break;
    }
    return !this.dirty && !this.theirs;
  }

  /** Another action (publish, unpublish…) changed the server's revision. */
  setRevision(revision: number): void {
    this.revision = revision;
  }

  /** The browser is back online: try at once. */
  online(): void {
    if (this.dirty && !this.theirs) {
      this.attempt = 0;
      this.schedule(0);
    }
  }

  /** The browser went offline: say so (the text is already on this device). */
  offline(): void {
    if (this.dirty && !this.theirs) {
      this.clearTimer();
      this.setStatus({ kind: "offline" });
    }
  }

  /** Conflict: save my version over theirs; theirs is kept on this device. */
  keepMine(): void {
    const theirs = this.theirs;
    if (!theirs) return;
    this.keep({ whose: "theirs", title: theirs.title, body: theirs.body, at: new Date().toISOString() });
    this.theirs = null;
    this.revision = theirs.revision;
    this.attempt = 0;
    this.setStatus({ kind: "pending" });
    this.schedule(0);
  }

  /**
   * Conflict: take their version. My text is kept on this device (`-conflict`); the caller reloads
   * the document and calls reset() with what the server has.
   */
  keepTheirs(): void {
    if (!this.theirs) return;
    this.keep({
      whose: "mine",
      title: this.draft.title,
      body: this.draft.body,
      at: new Date().toISOString(),
    });
  }

  /** Start over from what the server has (after "keep theirs", or a reload). */
  reset(saved: T, revision: number): void {
    this.clearTimer();
    this.theirs = null;
    this.draft = saved;
    this.savedJson = JSON.stringify(saved);
    this.revision = revision;
    this.attempt = 0;
    this.removeOwnCopy(true);
    this.setStatus({ kind: "saved" });
  }

  /**
   * Restore changes kept on this device: the draft becomes `input`, saved against the revision they
   * started from (so anything saved meanwhile shows up as a conflict rather than being overwritten).
   */
  restore(copy: LocalCopy<T>): void {
    this.revision = copy.baseRevision;
    this.update(copy.input);
    this.schedule(0);
  }

  /**
   * The document got another key (a new post was created by its first save and is now stored under
   * its id): this tab's local copy and kept version move with it, so a reload of the new address
   * finds them and the next "New post" does not.
   */
  moveTo(storageKey: string): void {
    if (storageKey === this.storageKey) return;
    for (const suffix of ["", "-conflict"]) {
      try {
        const value = this.storage?.getItem(this.storageKey + suffix);
        if (value == null) continue;
        this.storage?.setItem(storageKey + suffix, value);
        this.storage?.removeItem(this.storageKey + suffix);
      } catch {
        /* storage disabled: nothing was kept to move */
      }
    }
    this.storageKey = storageKey;
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    this.listeners.clear();
  }

  private keep(version: KeptVersion): void {
    try {
      this.storage?.setItem(`${this.storageKey}-conflict`, JSON.stringify(version));
    } catch {
      /* storage full or disabled: the panel still offers to copy the text */
    }
  }

  private schedule(ms: number): void {
    this.clearTimer();
    if (this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One save at a time: a save asked for meanwhile follows when this one ends (attemptSave). */
  private run(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.theirs || JSON.stringify(this.draft) === this.savedJson) return Promise.resolve();
    if (this.options.isOnline && !this.options.isOnline()) {
      this.setStatus({ kind: "offline" });
      return Promise.resolve();
    }
    this.inFlight = this.attemptSave().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async attemptSave(): Promise<void> {
    const input = this.draft;
    const json = JSON.stringify(input);
    this.setStatus({ kind: "saving" });
    try {
      const revision = await this.options.save(input, this.revision);
      this.revision = revision;
      this.savedJson = json;
      this.attempt = 0;
      if (JSON.stringify(this.draft) === json) {
        this.removeOwnCopy();
        this.setStatus({ kind: "saved" });
      } else {
        // Typed while saving: the copy now starts from the new revision; save again soon.
        this.writeLocalCopy();
        this.setStatus({ kind: "pending" });
        this.schedule(this.delayMs);
      }
    } catch (error) {
      const theirs = staleRevisionOf(error);
      if (theirs) {
        this.theirs = theirs;
        this.clearTimer();
        this.setStatus({ kind: "conflict", theirs });
        return;
      }
      const ui = this.options.describe(error);
      if (NEEDS_EDITOR.has(ui.code)) {
        this.setStatus({ kind: "invalid", error: ui });
      } else if (NOT_RETRIED.has(ui.code)) {
        this.setStatus({ kind: "failed", error: ui });
      } else if (this.options.isOnline && !this.options.isOnline()) {
        this.setStatus({ kind: "offline" });
      } else {
        this.attempt += 1;
        this.setStatus({ kind: "retrying", error: ui });
        this.schedule(Math.min(RETRY_MAX_MS, 1000 * 2 ** (this.attempt - 1)));
      }
    }
  }

  private writeLocalCopy(): void {
    const copy: LocalCopy<T> = {
      input: this.draft,
      baseRevision: this.revision,
      at: new Date().toISOString(),
      tab: TAB_ID,
    };
    try {
      this.storage?.setItem(this.storageKey, JSON.stringify(copy));
    } catch {
      /* storage full or disabled: the server save still happens */
    }
  }

  /** Remove the local copy if this tab wrote it (or `always`), so another tab's copy survives. */
  private removeOwnCopy(always = false): void {
    const copy = readLocalCopy<T>(this.storageKey, this.storage);
    if (copy && (always || copy.tab === TAB_ID || JSON.stringify(copy.input) === this.savedJson))
      removeLocalCopy(this.storageKey, this.storage);
  }

  private setStatus(status: SaveStatus): void {
    if (this.disposed) return;
    this.status = status;
    for (const listener of this.listeners) listener(status);
  }
}
