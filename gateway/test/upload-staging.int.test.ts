// The staging bound for resumable sermon uploads (UPLOAD_DIR_MAX_BYTES; docker-compose.yml gives the
// staging folder its own volume, which Docker cannot size-limit): staged uploads together never take
// more than the bound, each counted at the size it declared, and room comes back when one is removed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { parseSize } from "../src/config.ts";
import { createUser, testGateway, type TestUser } from "./helpers.ts";
import { TusClient, uploadIdOf } from "./sermon-support.ts";

const MB = 1024 * 1024;
let gateway: Gateway;
let base: string;
let editor: TestUser;
let uploadDir: string;

beforeAll(async () => {
  uploadDir = await mkdtemp(join(tmpdir(), "flock-staging-"));
  gateway = await testGateway({ uploadDir, uploadDirMaxBytes: parseSize("3M", "UPLOAD_DIR_MAX_BYTES") });
  base = await gateway.listen();
  editor = await createUser({ roles: ["Editor"] });
});
afterAll(async () => {
  await gateway?.close();
  await rm(uploadDir, { recursive: true, force: true });
});

describe("staged uploads stay within UPLOAD_DIR_MAX_BYTES", () => {
  it("refuses an upload that would not fit (507), counting declared sizes, and has room again once one is removed", async () => {
    const tus = new TusClient(base, editor.token);
    // Two uploads declared at 1.5 MB each fill the 3 MB, though no byte has arrived yet.
    const first = await tus.create(1.5 * MB, "first.mp3", "audio/mpeg");
    const second = await tus.create(1.5 * MB, "second.mp3", "audio/mpeg");
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await gateway.services.audioUploads.stagedBytes()).toBe(3 * MB);

    const third = await tus.create(1, "third.mp3", "audio/mpeg");
    expect(third.status).toBe(507);
    expect(await third.text()).toBe("There is no room to stage this upload right now. Try again later.\n");

    // Several at once cannot all squeeze into the room left for one.
    await gateway.services.audioUploads.remove(uploadIdOf(first.headers.get("location")!));
    const racing = await Promise.all([1, 2, 3].map((n) => tus.create(MB, `race-${n}.mp3`, "audio/mpeg")));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 507, 507]);
    expect(await gateway.services.audioUploads.stagedBytes()).toBe(2.5 * MB);
  });

  it("reads sizes as people write them, and refuses what is not a size", () => {
    expect(parseSize("2G", "X")).toBe(2 * 1024 ** 3);
    expect(parseSize("500m", "X")).toBe(500 * MB);
    expect(parseSize("1073741824", "X")).toBe(1024 ** 3);
    expect(() => parseSize("lots", "UPLOAD_DIR_MAX_BYTES")).toThrow(
      'UPLOAD_DIR_MAX_BYTES must be a size such as 2G, 500M or 1073741824 (bytes); it is "lots".',
    );
  });
});
