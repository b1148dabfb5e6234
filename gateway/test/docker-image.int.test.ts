// The gateway image, checked without a Docker engine: its file set is assembled from the
// Dockerfile's COPY lines (scripts/lib/docker-image.ts) and its ENTRYPOINT runs from there, with the
// image's ENV, against a real PocketBase. A file the image lacks fails here as in `docker compose up`
// (issue 10: ensure-admin.ts imported demo-seed files the image did not have). The real
// `docker compose` smoke test is scripts/docker-smoke.sh, where an engine exists.
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  assembleImage,
  linkNodeModules,
  parseDockerfile,
  productionClosure,
  stubWebDist,
  type AssembledImage,
} from "../../scripts/lib/docker-image.ts";
import { resolvePocketBaseBinary, startPocketBase, upsertSuperuser } from "../../scripts/lib/pocketbase.ts";
import { freePort } from "../../scripts/lib/stack.ts";
import { CSRF_HEADER } from "../src/yoga.ts";
import { testWorker } from "./helpers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const DOCKERFILE = join(ROOT, "docker/gateway.Dockerfile");
const superuser = { email: "system@image.test", password: "image-superuser-2231" };
const admin = { email: "first.admin@image.test", password: "a long first password 4471" };

const dirs: string[] = [];
let pocketbase: Awaited<ReturnType<typeof startPocketBase>>;
let lock: Parameters<typeof productionClosure>[0];

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "flock-image-pb-"));
  dirs.push(dataDir);
  const bin = resolvePocketBaseBinary();
  // A PocketBase of its own, copied from the global setup's migrated template, with this test's superuser.
  await cp(inject("pbTemplateDir"), dataDir, { recursive: true });
  await upsertSuperuser(bin, dataDir, superuser.email, superuser.password);
  pocketbase = await startPocketBase({ bin, dataDir, port: await freePort(), quiet: true });
  lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as typeof lock;
});
afterAll(async () => {
  await pocketbase?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The stages before the last one, as the local equivalents of what they produce. */
const stageOutputs = () => ({
  "deps:/app/node_modules": (target: string) =>
    linkNodeModules(ROOT, lock, productionClosure(lock, "gateway"), target),
  // A version a workspace needs that differs from the root's sits in that workspace's own node_modules.
  "deps:/app/shared/node_modules": (target: string) =>
    linkNodeModules(ROOT, lock, productionClosure(lock, "gateway"), target, "shared/node_modules/"),
  "web:/app/web/dist": async (target: string) => {
    if (existsSync(join(ROOT, "web/dist/index.html"))) await symlink(join(ROOT, "web/dist"), target);
    else await stubWebDist(target);
  },
});

async function assemble(dockerfile = DOCKERFILE): Promise<AssembledImage & { root: string }> {
  const root = await mkdtemp(join(tmpdir(), "flock-image-"));
  dirs.push(root);
  return {
    root,
    ...(await assembleImage({ context: ROOT, dockerfile, root, stageOutputs: stageOutputs() })),
  };
}

interface Run {
  exit: Promise<number | null>;
  output: () => string;
  stop(): Promise<number | null>;
  listening: Promise<void>;
}

/**
 * The image runs Node 24, which strips the TypeScript types itself (no tsx in the image). A test
 * runner on a Node that cannot (20; 22 before 22.18) preloads the repository's tsx instead, so the
 * file set is still checked; the type stripping itself is checked where the suite runs on Node 24
 * (.ci/run).
 */
const NODE_STRIPS_TYPES = Boolean((process.features as { typescript?: string | false }).typescript);

/** Runs the image's ENTRYPOINT with its ENV (paths inside the image mapped to the assembled folder) and compose's variables. */
async function runEntrypoint(image: AssembledImage, port: number): Promise<Run> {
  const entrypoint = image.stage.entrypoint!;
  // The entrypoint's `node` is this test's Node.
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    HOME: tmpdir(),
  };
  if (!NODE_STRIPS_TYPES)
    env.NODE_OPTIONS = `--import=${pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href}`;
  for (const [key, value] of Object.entries(image.stage.env))
    env[key] = value.startsWith("/") ? image.hostPath(value) : value;
  Object.assign(env, {
    HOST: "127.0.0.1",
    PORT: String(port),
    PB_URL: pocketbase.url,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PB_SUPERUSER_EMAIL: superuser.email,
    PB_SUPERUSER_PASSWORD: superuser.password,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(testWorker().smtpPort),
    SMTP_FROM: "office@image.test",
    FLOCK_ADMIN_EMAIL: admin.email,
    FLOCK_ADMIN_PASSWORD: admin.password,
  });
  // The entrypoint is a shell script (the Dockerfile makes it executable; run it with sh here).
  const child = spawn("sh", [image.hostPath(entrypoint[0]!), ...entrypoint.slice(1)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let onListening: () => void = () => {};
  const listening = new Promise<void>((resolveListening) => (onListening = resolveListening));
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Flock gateway listening")) onListening();
    });
  }
  const exit = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  return {
    exit,
    output: () => output,
    listening: Promise.race([
      listening,
      exit.then((code) => Promise.reject(new Error(`the entrypoint exited (${code}):\n${output}`))),
    ]),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exit;
    },
  };
}

describe("the gateway image (docker/gateway.Dockerfile), without Docker", () => {
  it("starts from exactly the copied files: creates the first administrator, then serves the app", async () => {
    const image = await assemble();
    expect(image.stage.entrypoint).toEqual(["/app/docker/gateway-entrypoint.sh"]);
    // Nothing of the development setup came along: no demo seed, no tests (.dockerignore).
    expect(existsSync(image.hostPath("/app/scripts/lib/seed.ts"))).toBe(false);
    expect(existsSync(image.hostPath("/app/gateway/test"))).toBe(false);
    expect(existsSync(image.hostPath("/app/gateway/src/markdown/render.test.ts"))).toBe(false);
    expect(existsSync(image.hostPath("/app/node_modules/vitest"))).toBe(false);
    // Nor a TypeScript loader: Node runs the gateway's sources itself.
    expect(existsSync(image.hostPath("/app/node_modules/tsx"))).toBe(false);
    expect(existsSync(image.hostPath("/app/node_modules/esbuild"))).toBe(false);

    const port = await freePort();
    const run = await runEntrypoint(image, port);
    let exitCode: number | null = null;
    try {
      await run.listening;
      expect(run.output()).toContain(`[ensure-admin] Created the administrator ${admin.email}`);
      const url = `http://127.0.0.1:${port}`;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('<div id="root">');
      const signIn = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", [CSRF_HEADER]: "1" },
        body: JSON.stringify({
          query: "mutation($i: SignInInput!) { signIn(input: $i) { roles { name } } }",
          variables: { i: admin },
        }),
      });
      expect(await signIn.json()).toEqual({ data: { signIn: { roles: [{ name: "Administrator" }] } } });
      // Markdown renders in worker threads (gateway/src/markdown/worker-entry.mjs): they start from the image's files too.
      const cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const preview = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", [CSRF_HEADER]: "1", cookie },
        body: JSON.stringify({
          query: "query($m: String!) { previewMarkdown(markdown: $m) }",
          variables: { m: "# Welcome *home*" },
        }),
      });
      expect(await preview.json()).toEqual({
        data: { previewMarkdown: '<h2 id="welcome-home">Welcome <em>home</em></h2>' },
      });
    } finally {
      exitCode = await run.stop();
    }
    // `exec` in the entrypoint: SIGTERM reaches the gateway, which closes cleanly.
    expect(exitCode).toBe(0);
  });

  it("fails to start when the image lacks a file the entrypoint imports", async () => {
    // The same Dockerfile without the COPY of the administrator helper ensure-admin.ts imports.
    const text = await readFile(DOCKERFILE, "utf8");
    const line = text.split("\n").find((l) => /^COPY scripts\/lib\/accounts\.ts /.test(l));
    expect(line).toBeDefined();
    const dockerfile = join(await mkdtemp(join(tmpdir(), "flock-dockerfile-")), "gateway.Dockerfile");
    dirs.push(join(dockerfile, ".."));
    await writeFile(dockerfile, text.replace(`${line}\n`, ""));
    const run = await runEntrypoint(await assemble(dockerfile), await freePort());
    const code = await Promise.race([run.exit, run.listening.then(() => "listening")]).catch(() => run.exit);
    if (code === "listening") await run.stop();
    expect(code).not.toBe(0);
    expect(run.output()).toContain("ERR_MODULE_NOT_FOUND");
  });

  it("refuses a COPY whose source is not in the build context, or is excluded by .dockerignore", async () => {
    const dir = await mkdtemp(join(tmpdir(), "flock-dockerfile-"));
    dirs.push(dir);
    const base = "FROM node:24-slim\nWORKDIR /app\n";
    await writeFile(
      join(dir, "missing.Dockerfile"),
      `${base}COPY scripts/lib/no-such-file.ts ./scripts/lib/\n`,
    );
    await expect(assemble(join(dir, "missing.Dockerfile"))).rejects.toThrow(
      /COPY scripts\/lib\/no-such-file\.ts: not in the build context/,
    );
    await writeFile(join(dir, "ignored.Dockerfile"), `${base}COPY gateway/test ./gateway/test\n`);
    await expect(assemble(join(dir, "ignored.Dockerfile"))).rejects.toThrow(/excluded by \.dockerignore/);
    await writeFile(
      join(dir, "stage.Dockerfile"),
      `FROM node:24-slim AS other\nFROM node:24-slim\nCOPY --from=other /somewhere /app/x\n`,
    );
    await expect(assemble(join(dir, "stage.Dockerfile"))).rejects.toThrow(
      /does not know what that stage produces/,
    );
  });

  it("reads the Dockerfile's stages, continuations, ENV and ENTRYPOINT", () => {
    const stages = parseDockerfile(
      'ARG IMG=node\nFROM ${IMG} AS deps\nRUN a \\\n  && b\nFROM x\nWORKDIR /app\nENV A=1 \\\n    B=/app/b\nCOPY --from=deps /app/n ./n\nCOPY a.ts b.ts ./s/\nENTRYPOINT ["/app/e.sh"]\n',
    );
    expect(stages.map((s) => s.name)).toEqual(["deps", null]);
    expect(stages[1]).toEqual({
      name: null,
      workdir: "/app",
      env: { A: "1", B: "/app/b" },
      copies: [
        { from: "deps", sources: ["/app/n"], dest: "/app/n" },
        { from: null, sources: ["a.ts", "b.ts"], dest: "/app/s/" },
      ],
      entrypoint: ["/app/e.sh"],
    });
  });
});
