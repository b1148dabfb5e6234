import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import type { UiError } from "../../lib/handleError.ts";
import { Autosave, readKeptVersion, readLocalCopy, type SaveStatus } from "./autosave.ts";

type Doc = { title: string; body: string };

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const describeError = (error: unknown): UiError => {
  if (CombinedGraphQLErrors.is(error))
    return { code: String(error.errors[0]?.extensions?.code), message: "server", fieldErrors: {} };
  return { code: "NETWORK", message: "offline", fieldErrors: {} };
};

const stale = (revision: number, body: string) =>
  new CombinedGraphQLErrors({
    errors: [
      {
        message: "newer",
        extensions: {
          code: "CONFLICT",
          reason: "stale_revision",
          currentRevision: revision,
          currentTitle: "Theirs",
          currentBody: body,
          currentUpdated: "2026-11-21T10:00:00Z",
        },
      },
    ],
  });

/** A fake server: one document, refuses stale revisions like the gateway. */
function server(initial: Doc, revision = 1) {
  const state = {
    doc: initial,
    revision,
    calls: [] as Array<{ input: Doc; expected: number }>,
    failNext: [] as unknown[],
  };
  const save = vi.fn(async (input: Doc, expected: number) => {
    state.calls.push({ input, expected });
    const failure = state.failNext.shift();
    if (failure) throw failure;
    if (expected !== state.revision) throw stale(state.revision, state.doc.body);
    state.doc = input;
    state.revision += 1;
    return state.revision;
  });
  return { state, save };
}

function setup(options: { online?: () => boolean } = {}) {
  const storage = new MemoryStorage();
  const fake = server({ title: "T", body: "one" });
  const statuses: SaveStatus["kind"][] = [];
  const autosave = new Autosave<Doc>({
    storageKey: "draft:p1",
    revision: 1,
    saved: { title: "T", body: "one" },
    save: fake.save,
    describe: describeError,
    storage,
    delayMs: 1500,
    ...(options.online ? { isOnline: options.online } : {}),
  });
  autosave.subscribe((s) => statuses.push(s.kind));
  return { storage, fake, statuses, autosave };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("autosave", () => {
  it("keeps every change on the device at once and saves once, after the typing pauses", async () => {
    const { storage, fake, autosave } = setup();
    autosave.update({ title: "T", body: "one t" });
    autosave.update({ title: "T", body: "one tw" });
    expect(readLocalCopy<Doc>("draft:p1", storage)?.input.body).toBe("one tw");
    await vi.advanceTimersByTimeAsync(1400);
    expect(fake.save).not.toHaveBeenCalled();
    autosave.update({ title: "T", body: "one two" });
    await vi.advanceTimersByTimeAsync(1500);
    expect(fake.state.calls).toEqual([{ input: { title: "T", body: "one two" }, expected: 1 }]);
    expect(autosave.current.kind).toBe("saved");
    expect(readLocalCopy("draft:p1", storage)).toBeNull();
    expect(autosave.dirty).toBe(false);
  });

  it("sends the revision each save returned, and saves again what was typed during a save", async () => {
    const { fake, autosave } = setup();
    let release!: () => void;
    fake.save.mockImplementationOnce(async (input, expected) => {
      await new Promise<void>((resolve) => (release = resolve));
      fake.state.calls.push({ input, expected });
      fake.state.doc = input;
      return ++fake.state.revision;
    });
    autosave.update({ title: "T", body: "a" });
    await vi.advanceTimersByTimeAsync(1500);
    autosave.update({ title: "T", body: "ab" }); // typed while the first save is on its way
    await vi.advanceTimersByTimeAsync(1500);
    release();
    await vi.advanceTimersByTimeAsync(1500);
    expect(fake.state.calls.map((c) => c.expected)).toEqual([1, 2]);
    expect(fake.state.doc.body).toBe("ab");
    expect(autosave.current.kind).toBe("saved");
  });

  it("retries network failures with growing pauses and keeps the local copy until one succeeds", async () => {
    const { storage, fake, autosave, statuses } = setup();
    fake.state.failNext.push(new TypeError("Failed to fetch"), new TypeError("Failed to fetch"));
    autosave.update({ title: "T", body: "kept" });
    await vi.advanceTimersByTimeAsync(1500);
    expect(autosave.current.kind).toBe("retrying");
    expect(readLocalCopy<Doc>("draft:p1", storage)?.input.body).toBe("kept");
    await vi.advanceTimersByTimeAsync(1000); // first retry after 1 s
    expect(fake.save).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000); // the second waits 2 s
    expect(fake.save).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.save).toHaveBeenCalledTimes(3);
    expect(autosave.current.kind).toBe("saved");
    expect(statuses).toContain("retrying");
    expect(readLocalCopy("draft:p1", storage)).toBeNull();
  });

  it("waits while offline and saves when the browser is back online", async () => {
    let online = false;
    const { fake, autosave } = setup({ online: () => online });
    autosave.update({ title: "T", body: "on the train" });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.save).not.toHaveBeenCalled();
    expect(autosave.current.kind).toBe("offline");
    online = true;
    autosave.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.state.doc.body).toBe("on the train");
    expect(autosave.current.kind).toBe("saved");
  });

  it("stops on a newer revision; keep mine saves over it and keeps theirs on the device", async () => {
    const { storage, fake, autosave } = setup();
    fake.state.doc = { title: "Theirs", body: "their text" };
    fake.state.revision = 2; // someone else saved
    autosave.update({ title: "T", body: "my text" });
    await vi.advanceTimersByTimeAsync(1500);
    const status = autosave.current;
    expect(status.kind).toBe("conflict");
    expect(status.kind === "conflict" && status.theirs).toMatchObject({ revision: 2, body: "their text" });
    autosave.update({ title: "T", body: "my text!" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.save).toHaveBeenCalledTimes(1); // no autosave during a conflict
    expect(readLocalCopy<Doc>("draft:p1", storage)?.input.body).toBe("my text!");

    autosave.keepMine();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.state.calls.at(-1)).toEqual({ input: { title: "T", body: "my text!" }, expected: 2 });
    expect(fake.state.doc.body).toBe("my text!");
    expect(autosave.current.kind).toBe("saved");
    expect(readKeptVersion("draft:p1", storage)).toMatchObject({ whose: "theirs", body: "their text" });
  });

  it("keep theirs keeps my text on the device and starts over from the server's version", async () => {
    const { storage, fake, autosave } = setup();
    fake.state.revision = 3;
    fake.state.doc = { title: "Theirs", body: "their text" };
    autosave.update({ title: "T", body: "my text" });
    await vi.advanceTimersByTimeAsync(1500);
    autosave.keepTheirs();
    autosave.reset({ title: "Theirs", body: "their text" }, 3);
    expect(readKeptVersion("draft:p1", storage)).toMatchObject({ whose: "mine", body: "my text" });
    expect(readLocalCopy("draft:p1", storage)).toBeNull();
    autosave.update({ title: "Theirs", body: "their text, edited" });
    await vi.advanceTimersByTimeAsync(1500);
    expect(fake.state.calls.at(-1)?.expected).toBe(3);
    expect(autosave.current.kind).toBe("saved");
  });

  it("does not retry a validation refusal until the text changes, and flush reports the outcome", async () => {
    const { fake, autosave } = setup();
    fake.state.failNext.push(
      new CombinedGraphQLErrors({
        errors: [
          { message: "bad", extensions: { code: "BAD_USER_INPUT", fieldErrorCodes: { title: "required" } } },
        ],
      }),
    );
    autosave.update({ title: "", body: "one" });
    expect(await autosave.flush()).toBe(false);
    expect(autosave.current.kind).toBe("invalid");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.save).toHaveBeenCalledTimes(1);
    autosave.update({ title: "Fixed", body: "one" });
    expect(await autosave.flush()).toBe(true);
    expect(fake.state.doc.title).toBe("Fixed");
  });

  it("moves its local copy to the key a new document gets, and keeps writing there", async () => {
    const { storage, fake, autosave } = setup();
    autosave.update({ title: "T", body: "typed before the id" });
    autosave.moveTo("draft:p2");
    expect(readLocalCopy("draft:p1", storage)).toBeNull();
    expect(readLocalCopy<Doc>("draft:p2", storage)?.input.body).toBe("typed before the id");
    autosave.update({ title: "T", body: "typed after" });
    expect(readLocalCopy<Doc>("draft:p2", storage)?.input.body).toBe("typed after");
    expect(readLocalCopy("draft:p1", storage)).toBeNull();
    await vi.advanceTimersByTimeAsync(1500);
    expect(fake.state.calls.at(-1)?.input.body).toBe("typed after");
    expect(readLocalCopy("draft:p2", storage)).toBeNull();
  });

  it("restores a local copy against the revision it started from", async () => {
    const { fake, autosave } = setup();
    fake.state.revision = 2; // saved elsewhere after the copy was made
    autosave.restore({ input: { title: "T", body: "from last night" }, baseRevision: 1, at: "", tab: "x" });
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.state.calls.at(-1)?.expected).toBe(1);
    expect(autosave.current.kind).toBe("conflict");
  });
});
