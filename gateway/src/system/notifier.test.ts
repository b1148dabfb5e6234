import { describe, expect, it, vi } from "vitest";
import type { GatewayServices } from "../context.ts";
import { SystemClient } from "../pocketbase/client.ts";
import { batchWindowStart, notify } from "./notifier.ts";

describe("batchWindowStart", () => {
  it("is the instant one window earlier, in PocketBase's date format", () => {
    expect(batchWindowStart(new Date("2026-03-01T10:30:00.000Z"), 60 * 60 * 1000)).toBe(
      "2026-03-01 09:30:00.000Z",
    );
  });
});

describe("notify", () => {
  it("never throws to the caller: PocketBase being unreachable is logged", async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const services = {
      system: new SystemClient("http://127.0.0.1:9", { email: "x@example.com", password: "x" }),
    } as unknown as GatewayServices;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await expect(
        notify(services, {
          userId: "u1",
          kind: "prayer_prayed",
          title: "t",
          groupKey: "prayed:r1",
          batchWindowMs: 1000,
        }),
      ).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining("[notify] could not notify u1"),
        expect.anything(),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
