// The gateway image's file set, assembled without a Docker engine (CI has none).
//
// `assembleImage` reads a Dockerfile, takes its final stage's COPY lines and builds that stage's
// WORKDIR in a temporary directory: build-context sources are copied (after .dockerignore, as the
// engine would send them), and what earlier stages produced is stood in for by the local
// equivalent (the production dependencies of the gateway workspace, computed from package-lock.json
// the way `npm ci --omit=dev --workspace=gateway` installs them; the built web app). A COPY whose
// source is missing, or an earlier stage's output this file does not know, throws: the image could
// not be built, or this check would silently stop checking it.
//
// gateway/test/docker-image.int.test.ts then runs the image's ENTRYPOINT from that directory, with
// the image's ENV, against a real PocketBase: a file the image lacks fails there as it would in
// `docker compose up`. scripts/docker-smoke.sh runs the real thing where a Docker engine exists.
import { cp, lstat, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { basename, dirname, join, posix, relative } from "node:path";

export interface DockerCopy {
  from: string | null;
  sources: string[];
  dest: string;
}

export interface DockerStage {
  name: string | null;
  workdir: string;
  env: Record<string, string>;
  copies: DockerCopy[];
  entrypoint: string[] | null;
}

/** Dockerfile lines with continuations joined and comments/parser directives dropped. */
function instructions(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (!current && /^\s*#/.test(line)) continue;
    if (current && /^\s*#/.test(line)) continue; // comments inside a continued instruction
    if (line.endsWith("\\")) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim()) out.push(current.trim());
    current = "";
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Shell-like words (double/single quotes), enough for COPY/ENV arguments. */
function words(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

function substitute(value: string, args: Record<string, string>): string {
  return value.replace(
    /\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g,
    (_, a: string | undefined, fallback: string | undefined, b: string | undefined) => {
      const name = (a ?? b)!;
      return args[name] ?? fallback ?? "";
    },
  );
}

/** The stages of a Dockerfile, with the instructions this check needs. */
export function parseDockerfile(text: string): DockerStage[] {
  const stages: DockerStage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const line of instructions(text)) {
    const keyword = line.split(/\s+/, 1)[0]!;
    const rest = line.slice(keyword.length).trim();
    const upper = keyword.toUpperCase();
    const stage = stages.at(-1);
    if (upper === "ARG") {
      const [name, value] = rest.split("=", 2) as [string, string | undefined];
      if (!stage && value !== undefined) globalArgs[name] = value;
      continue;
    }
    if (upper === "FROM") {
      const as = /\s+AS\s+(\S+)\s*$/i.exec(rest);
      stages.push({ name: as ? as[1]! : null, workdir: "/", env: {}, copies: [], entrypoint: null });
      continue;
    }
    if (!stage) throw new Error(`Dockerfile: ${upper} before FROM`);
    if (upper === "WORKDIR")
      stage.workdir = posix.resolve(stage.workdir, substitute(rest, { ...globalArgs, ...stage.env }));
    else if (upper === "ENV") {
      for (const word of words(rest)) {
        const eq = word.indexOf("=");
        if (eq < 0) throw new Error(`Dockerfile: only ENV key=value is supported (${line})`);
        stage.env[word.slice(0, eq)] = substitute(word.slice(eq + 1), stage.env);
      }
    } else if (upper === "COPY" || upper === "ADD") {
      if (upper === "ADD") throw new Error("Dockerfile: ADD is not supported by this check; use COPY");
      const parts = words(rest);
      let from: string | null = null;
      while (parts[0]?.startsWith("--")) {
        const flag = parts.shift()!;
        if (flag.startsWith("--from=")) from = flag.slice("--from=".length);
      }
      if (parts.length < 2) throw new Error(`Dockerfile: COPY needs a source and a destination (${line})`);
      const dest = parts.pop()!;
      stage.copies.push({
        from,
        sources: parts,
        dest: dest.endsWith("/")
          ? `${posix.resolve(stage.workdir, dest)}/`
          : posix.resolve(stage.workdir, dest),
      });
    } else if (upper === "ENTRYPOINT") {
      stage.entrypoint = rest.startsWith("[") ? (JSON.parse(rest) as string[]) : ["/bin/sh", "-c", rest];
    }
  }
  return stages;
}

/** .dockerignore patterns → a predicate on context-relative paths (a match on a folder covers its files). */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const pattern = posix.normalize((negate ? line.slice(1) : line).replace(/^\/+/, ""));
      let source = "";
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern[i]!;
        if (c === "*" && pattern[i + 1] === "*") {
          // "**/" matches any number of folders (also none); a trailing "**" anything below.
          if (pattern[i + 2] === "/") {
            source += "(?:.*/)?";
            i += 2;
          } else {
            source += ".*";
            i += 1;
          }
        } else if (c === "*") source += "[^/]*";
        else if (c === "?") source += "[^/]";
        else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
      }
      return { negate, regex: new RegExp(`^${source}(?:/.*)?$`) };
    });
  return (path: string) => {
    let ignored = false;
    for (const rule of rules) if (rule.regex.test(path)) ignored = !rule.negate;
    return ignored;
  };
}

interface Lockfile {
  packages: Record<
    string,
    {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      link?: boolean;
      resolved?: string;
    }
  >;
}

/**
 * The lockfile paths `npm ci --omit=dev --workspace=<workspace>` installs: everything the workspace's
 * production dependencies need, resolved the way Node does (nearest node_modules upwards).
 */
export function productionClosure(lock: Lockfile, workspace: string): Set<string> {
  const found = new Set<string>();
  const resolveFrom = (from: string, name: string): string | null => {
    let base = from;
    for (;;) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return null;
      const cut = base.lastIndexOf("/node_modules/");
      base =
        cut >= 0
          ? base.slice(0, cut)
          : base.startsWith("node_modules/") || !base.includes("/")
            ? ""
            : dirname(base);
    }
  };
  const queue = [workspace];
  while (queue.length) {
    const path = queue.pop()!;
    const entry = lock.packages[path];
    if (!entry) continue;
    // A workspace the workspace depends on (@flock/shared → shared/): a link, whose own dependencies
    // (intl-messageformat…) are installed too.
    if (entry.link && entry.resolved && !found.has(entry.resolved)) {
      found.add(entry.resolved);
      queue.push(entry.resolved);
      continue;
    }
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of names) {
      const resolved = resolveFrom(path, name);
      if (!resolved || found.has(resolved)) continue;
      found.add(resolved);
      queue.push(resolved);
    }
  }
  return found;
}

export interface AssembleOptions {
  /** Build context (the repository root). */
  context: string;
  dockerfile: string;
  /** Empty directory that stands for the image's root ("/"). */
  root: string;
  /**
   * What earlier stages produced, by `<stage>:<absolute path>`: a function that fills `target`
   * (a path under `root`). Anything else copied --from a stage throws.
   */
  stageOutputs: Record<string, (target: string) => Promise<void>>;
}

export interface AssembledImage {
  stage: DockerStage;
  /** Host path of an absolute path inside the image. */
  hostPath(imagePath: string): string;
}

async function copyFromContext(
  context: string,
  source: string,
  target: string,
  ignored: (path: string) => boolean,
): Promise<void> {
  const from = join(context, source);
  if (ignored(posix.normalize(source)) || !existsSync(from)) {
    throw new Error(
      `COPY ${source}: not in the build context${existsSync(from) ? " (excluded by .dockerignore)" : ""}`,
    );
  }
  const isDir = (await lstat(from)).isDirectory();
  await mkdir(isDir ? target : dirname(target), { recursive: true });
  await cp(from, target, {
    recursive: true,
    filter: (path) => {
      const rel = relative(context, path).split("\\").join("/");
      return !ignored(rel);
    },
  });
}

/** The final stage's files, in `options.root`. Throws on a source the build would not find. */
export async function assembleImage(options: AssembleOptions): Promise<AssembledImage> {
  const stages = parseDockerfile(await readFile(options.dockerfile, "utf8"));
  const stage = stages.at(-1);
  if (!stage) throw new Error(`${options.dockerfile}: no stage`);
  const ignoreFile = join(options.context, ".dockerignore");
  const ignored = existsSync(ignoreFile) ? dockerignore(await readFile(ignoreFile, "utf8")) : () => false;
  const hostPath = (imagePath: string) => join(options.root, posix.resolve("/", imagePath));
  for (const copy of stage.copies) {
    const intoDir = copy.dest.endsWith("/") || copy.sources.length > 1;
    for (const source of copy.sources) {
      if (copy.from) {
        const key = `${copy.from}:${posix.resolve("/", source)}`;
        const produce = options.stageOutputs[key];
        if (!produce)
          throw new Error(
            `COPY --from=${copy.from} ${source}: this check does not know what that stage produces (add it to stageOutputs)`,
          );
        const target = hostPath(intoDir ? posix.join(copy.dest, posix.basename(source)) : copy.dest);
        await mkdir(dirname(target), { recursive: true });
        await produce(target);
        continue;
      }
      const from = join(options.context, source);
      const isDir = existsSync(from) && (await lstat(from)).isDirectory();
      // A folder's contents go into the destination; a file goes into it (…/) or becomes it.
      const target = isDir
        ? hostPath(copy.dest)
        : hostPath(intoDir ? posix.join(copy.dest, basename(source)) : copy.dest);
      await copyFromContext(options.context, source, target, ignored);
    }
  }
  return { stage, hostPath };
}

/**
 * A node_modules folder holding exactly the packages of `closure` (lockfile paths at the top level
 * of `base`: the root's node_modules, or a workspace's own, e.g. "shared/node_modules/"), each a symbolic link to the repository's installed copy; workspace links point
 * where npm points them. Code in the image that imports anything else fails as it would there.
 */
export async function linkNodeModules(
  repoRoot: string,
  lock: Lockfile,
  closure: Set<string>,
  target: string,
  base = "node_modules/",
): Promise<void> {
  await mkdir(target, { recursive: true });
  for (const path of closure) {
    const name = path.slice(base.length);
    if (!path.startsWith(base) || name.includes("/node_modules/")) continue; // nested: inside its parent
    const destination = join(target, name);
    await mkdir(dirname(destination), { recursive: true });
    const entry = lock.packages[path]!;
    if (entry.link && entry.resolved) {
      await symlink(relative(dirname(destination), join(target, "..", entry.resolved)), destination);
      continue;
    }
    const installed = join(repoRoot, path);
    if (!existsSync(installed)) continue; // an optional package for another platform
    await symlink(installed, destination);
  }
}

/** Writes a minimal built web app (when the real build is not there): the gateway only needs index.html. */
export async function stubWebDist(target: string): Promise<void> {
  await mkdir(target, { recursive: true });
  await writeFile(
    join(target, "index.html"),
    '<!doctype html><html lang="en"><head><title>Flock</title></head><body><div id="root"></div></body></html>\n',
  );
}
