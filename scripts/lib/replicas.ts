// Gateway replicas as a host runs them (docs/DEPLOYMENT.md, "Several gateway replicas"): a redis-server,
// gateway processes (gateway/src/main.ts, as the image starts it) on one PocketBase, and nginx in front,
// configured by deploy/nginx/flock-replicas.conf with the given ports. Used by
// gateway/test/replicas.int.test.ts and scripts/bench-replicas.ts. Needs the Debian packages
// redis-server and nginx.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./pocketbase.ts";

export interface Replica {
  name: string;
  child: ChildProcess;
  url: string;
  /** What it printed so far (stdout and stderr). */
  output: string;
}

/** A program from the PATH (or /usr/sbin, where Debian puts nginx), or one sentence saying what to install. */
export function program(name: string): string {
  for (const candidate of [name, `/usr/sbin/${name}`, `/usr/bin/${name}`]) {
    if (spawnSync(candidate, ["-v"], { stdio: "ignore" }).error === undefined) return candidate;
  }
  throw new Error(`${name} is not installed: apt-get install redis-server nginx (CI's .ci/run does).`);
}

/** Resolves when `url` answers `path` with 200, or rejects after `timeoutMs`. */
export async function answers(url: string, path: string, timeoutMs: number, what = url): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${what} did not answer ${path} within ${timeoutMs / 1000} s`);
}

function collect(child: ChildProcess, into: { output: string }) {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => (into.output += chunk));
  }
}

/** A throw-away redis-server on `port`: no persistence, its files in `dir`. */
export function startRedis(port: number, dir: string): ChildProcess {
  return spawn(
    program("redis-server"),
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
}

/**
 * One gateway process on `port`, with the environment a replica gets (TRUST_PROXY, REDIS_URL…) plus
 * `env`; resolves once it is ready (/readyz: PocketBase's settings synced), not only up.
 */
export async function startReplica(
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<Replica> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "gateway/src/main.ts")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH!,
      HOME: tmpdir(),
      PORT: String(port),
      HOST: "127.0.0.1",
      TRUST_PROXY: "true",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const replica: Replica = { name, child, url: `http://127.0.0.1:${port}`, output: "" };
  collect(child, replica);
  await answers(replica.url, "/readyz", 90_000, `replica ${name}`).catch((error: Error) => {
    throw new Error(`${error.message}. Output:\n${replica.output}`);
  });
  return replica;
}

/**
 * nginx on 127.0.0.1:`listen` in front of `upstreams` (ports), running deploy/nginx/flock-replicas.conf
 * as documented with those addresses, inside a minimal main configuration of its own in `dir`. Each
 * answer carries `X-Upstream` (the replica or replicas nginx tried), which the documented file does not.
 */
export async function startNginx(upstreams: number[], listen: number, dir: string): Promise<ChildProcess> {
  const documented = await readFile(join(ROOT, "deploy/nginx/flock-replicas.conf"), "utf8");
  const servers = upstreams.map((port) => `server 127.0.0.1:${port};`).join(" ");
  const site = documented
    .replace(/server 127\.0\.0\.1:3001;\s*server 127\.0\.0\.1:3002;/, servers)
    .replace("listen 80;", `listen 127.0.0.1:${listen};`);
  if (!site.includes(servers) || !site.includes(`listen 127.0.0.1:${listen};`))
    throw new Error(
      "deploy/nginx/flock-replicas.conf no longer has the upstream and listen lines this expects",
    );
  const conf = join(dir, "nginx");
  await mkdir(join(conf, "temp"), { recursive: true });
  await writeFile(join(conf, "flock.conf"), site);
  const temp = (name: string) => `${name}_temp_path ${conf}/temp/${name};`;
  await writeFile(
    join(conf, "nginx.conf"),
    [
      "user root;",
      "worker_processes 1;",
      `error_log ${conf}/error.log warn;`,
      `pid ${conf}/nginx.pid;`,
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      `  client_body_temp_path ${conf}/temp/body;`,
      ...["proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `  ${temp(name)}`),
      "  add_header X-Upstream $upstream_addr always;",
      `  include ${conf}/flock.conf;`,
      "}",
      "",
    ].join("\n"),
  );
  const child = spawn(program("nginx"), ["-p", conf, "-c", join(conf, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = { output: "" };
  collect(child, log);
  await answers(`http://127.0.0.1:${listen}`, "/healthz", 20_000, "nginx").catch(async (error: Error) => {
    const errors = await readFile(join(conf, "error.log"), "utf8").catch(() => "");
    throw new Error(`${error.message}: ${log.output} ${errors.slice(-2000)}`);
  });
  return child;
}
