import { randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import PocketBase, { ClientResponseError } from "pocketbase";
import { print, type DocumentNode } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { expect, inject } from "vitest";
import { createGateway, prepareGateway, type Gateway } from "../src/index.ts";
import type { GatewayConfig } from "../src/config.ts";
import type { PermissionName } from "../src/pocketbase/records.ts";
import { CSRF_HEADER } from "../src/yoga.ts";
import { SESSION } from "@flock/shared/limits";
import { TRUSTED_DEVICE_COOKIE } from "../src/session/trusted-device.ts";
import { signUpsSettled } from "../src/schema/auth/resolvers.ts";
import { pocketBaseCallCounter } from "../src/pocketbase/http-fetch.ts";
import type { IntegrationWorker } from "./global-setup.ts";
import { forThisWorker } from "../../scripts/lib/test-workers.ts";

export const PASSWORD = "test-password-5521";
export const ROLE_NAMES = ["Administrator", "Pastor", "Editor", "Care Team"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/**
 * This test file's PocketBase and mail catcher: its worker's own (gateway/test/global-setup.ts starts one
 * per vitest worker, and a worker runs one file at a time), so files in other workers never see its data.
 */
export const testWorker = (): IntegrationWorker => forThisWorker(inject("integrationWorkers"), "PocketBase");
/** A PocketBase of the file's own instead of the worker's (see ownPocketBase). */
let ownPocketBaseUrl: string | null = null;
export const pbUrl = () => ownPocketBaseUrl ?? testWorker().pbUrl;

/**
 * Points this file's helpers (pbUrl, system, createUser, testConfig…) at a PocketBase of its own
 * until the returned function is called (in afterAll: modules outlive a file in an integration worker).
 * For a file that changes what every other file reads — the church's name, language and time zone —
 * so that no file sees those changes, whatever runs beside it.
 */
export function ownPocketBase(url: string): () => void {
  ownPocketBaseUrl = url;
  return () => {
    ownPocketBaseUrl = null;
  };
}
export const catcherUrl = () => testWorker().catcherUrl;

export function testConfig(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    port: 0,
    host: "127.0.0.1",
    pbUrl: pbUrl(),
    publicUrl: "http://flock.test",
    production: false,
    corsOrigins: [],
    webDist: null,
    superuser: inject("superuser"),
    smtp: {
      host: "127.0.0.1",
      port: testWorker().smtpPort,
      username: "",
      password: "",
      tls: false,
      senderAddress: "no-reply@flock.test",
    },
    trustProxy: false,
    // A worker's files share its PocketBase: only the webhook tests deliver webhooks, on their own schedule.
    webhookDelivery: false,
    ...overrides,
  };
}

/** A gateway for one test file, called in-process through yoga.fetch (its own rate limiter). */
export async function testGateway(overrides: Partial<GatewayConfig> = {}): Promise<Gateway> {
  const gateway = createGateway(testConfig(overrides));
  await prepareGateway(gateway);
  return gateway;
}

export interface GqlResult<T = Record<string, unknown>> {
  status: number;
  data: T | null;
  errors: Array<{ message: string; extensions?: Record<string, unknown> }> | undefined;
  headers: Headers;
}

/** A GraphQL caller that keeps its session cookie like a browser does. */
export class GqlClient {
  cookie: string | null = null;
  /** The trusted-device cookie a successful sign-in leaves in the browser (kept like a browser does). */
  trustedDevice: string | null = null;

  constructor(
    private readonly gateway: Gateway,
    private readonly options: { token?: string; ip?: string } = {},
  ) {}

  /**
   * A typed operation: a document generated from the .graphql files in gateway/test/operations (npm run
   * codegen writes gateway/test/__generated__/operations.ts), so the result and the variables carry the
   * schema's types.
   */
  execute<TResult, TVariables extends Record<string, unknown>>(
    document: TypedDocumentNode<TResult, TVariables>,
    ...[variables, init]: Record<string, never> extends TVariables
      ? [variables?: TVariables, init?: RequestInit]
      : [variables: TVariables, init?: RequestInit]
  ): Promise<GqlResult<TResult>> {
    return this.request<TResult>(document, variables, init);
  }

  /** Any operation (a string or a document), with hand-typed results: for deliberately wrong variables, raw bodies. */
  async request<T = Record<string, unknown>>(
    operation: string | DocumentNode,
    variables: Record<string, unknown> = {},
    init: RequestInit = {},
  ): Promise<GqlResult<T>> {
    const query = typeof operation === "string" ? operation : print(operation);
    const headers = new Headers(init.headers);
    if (!init.body) headers.set("content-type", "application/json");
    const cookies = [
      ...(this.cookie ? [`${SESSION.cookieName}=${this.cookie}`] : []),
      ...(this.trustedDevice ? [`${TRUSTED_DEVICE_COOKIE}=${this.trustedDevice}`] : []),
    ];
    if (cookies.length) headers.set("cookie", cookies.join("; "));
    if (this.options.token) headers.set("authorization", `Bearer ${this.options.token}`);
    const response = await this.gateway.yoga.fetch(
      "http://flock.test/graphql",
      { method: "POST", body: JSON.stringify({ query, variables }), ...init, headers },
      { clientIp: this.options.ip ?? "203.0.113.1" },
    );
    for (const cookie of response.headers.getSetCookie()) {
      const match = new RegExp(`^${SESSION.cookieName}=([^;]*)`).exec(cookie);
      if (match) this.cookie = match[1] ? decodeURIComponent(match[1]) : null;
      const trusted = new RegExp(`^${TRUSTED_DEVICE_COOKIE}=([^;]*)`).exec(cookie);
      if (trusted) this.trustedDevice = trusted[1] || null;
    }
    const body = (await response.json()) as { data?: T; errors?: GqlResult["errors"] };
    return {
      status: response.status,
      data: body.data ?? null,
      errors: body.errors,
      headers: response.headers,
    };
  }
}

export const errorCode = (result: Pick<GqlResult, "errors">) =>
  result.errors?.[0]?.extensions?.code as string | undefined;

/** A BAD_USER_INPUT answer's messages by field ({} without any). */
export const fieldErrors = (result: Pick<GqlResult, "errors">) =>
  (result.errors?.[0]?.extensions?.fieldErrors ?? {}) as Record<string, string>;

/**
 * A RATE_LIMITED answer as every limiter gives it (issue 10): the wait in `Retry-After` and in the
 * error, and 429 for an `application/json` POST (GqlClient sends no Accept header, so Yoga answers
 * application/json) since no data came back.
 */
export function expectRateLimited(result: GqlResult<unknown>): void {
  expect(errorCode(result)).toBe("RATE_LIMITED");
  const wait = result.errors?.[0]?.extensions?.retryAfterSeconds;
  expect(wait).toBeGreaterThan(0);
  expect(result.headers.get("retry-after")).toBe(String(wait));
  expect(result.headers.get("content-type")).toMatch(/^application\/json/);
  expect(result.status).toBe(429);
  expect(result.data).toBeNull();
}

export interface SignedUp {
  /** A client signed in as the new account. */
  client: GqlClient;
  user: { id: string; email: string; verified: boolean };
  person: {
    id: string;
    recordStatus: string;
    householdRole: string | null;
    household: { id: string; name: string } | null;
  };
}

/**
 * Sign up through GraphQL as a newcomer does, wait until the account exists (sign-up completes after
 * its answer, which is the same for taken addresses), then sign in with a fresh client.
 */
export async function signUpAndSignIn(
  gateway: Gateway,
  input: { firstName: string; lastName: string; email: string; password?: string; inviteToken?: string },
  ip = "203.0.113.1",
): Promise<SignedUp> {
  const password = input.password ?? PASSWORD;
  const client = new GqlClient(gateway, { ip });
  const answer = await client.request(`mutation($input: SignUpInput!) { signUp(input: $input) }`, {
    input: { ...input, password, passwordConfirm: password },
  });
  expect(answer.errors).toBeUndefined();
  expect(answer.data).toEqual({ signUp: true });
  await signUpsSettled();
  const signIn = await client.request<{ signIn: Omit<SignedUp, "client"> }>(
    `mutation($input: SignInInput!) { signIn(input: $input) { user { id email verified } person { id recordStatus householdRole household { id name } } } }`,
    { input: { email: input.email, password } },
  );
  expect(signIn.errors).toBeUndefined();
  return { client, ...signIn.data!.signIn };
}

let systemClient: PocketBase | null = null;
/** The superuser client, for arranging test data only. */
export async function system(): Promise<PocketBase> {
  if (!systemClient || systemClient.baseURL !== pbUrl()) {
    systemClient = new PocketBase(pbUrl());
    systemClient.autoCancellation(false);
    const { email, password } = inject("superuser");
    await systemClient.collection("_superusers").authWithPassword(email, password);
  }
  return systemClient;
}

export const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 8)}@test.example`;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  personId: string | null;
  /** A PocketBase token for this user (REST checks and Bearer calls). */
  token: string;
}

/** Factory: a verified user with an optional person and roles (defaults: active person, no roles). */
export async function createUser(
  options: {
    roles?: RoleName[];
    person?: "active" | "pending" | "none";
    verified?: boolean;
    status?: "active" | "suspended";
    email?: string;
    name?: string;
  } = {},
): Promise<TestUser> {
  const su = await system();
  const email = options.email ?? uniqueEmail(options.roles?.[0]?.toLowerCase().replace(" ", "-") ?? "member");
  const roles = options.roles?.length
    ? await su
        .collection("roles")
        .getFullList({ filter: options.roles.map((r) => su.filter("name = {:n}", { n: r })).join(" || ") })
    : [];
  const personStatus = options.person ?? "active";
  const person =
    personStatus === "none"
      ? null
      : await su
          .collection("people")
          .create({ firstName: "Test", lastName: "Person", recordStatus: personStatus });
  const user = await su.collection("users").create({
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    name: options.name ?? "Test Person",
    verified: options.verified ?? true,
    person: person?.id ?? "",
    roles: roles.map((r) => r.id),
    status: "active",
  });
  const pb = new PocketBase(pbUrl());
  const auth = await pb.collection("users").authWithPassword(email, PASSWORD);
  if (options.status === "suspended") await su.collection("users").update(user.id, { status: "suspended" });
  return { id: user.id, email, password: PASSWORD, personId: person?.id ?? null, token: auth.token };
}

/** A user whose only role is a new one granting exactly `permissions` (finance roles no seeded role has). */
export async function createUserWithPermissions(permissions: PermissionName[]): Promise<TestUser> {
  const su = await system();
  const role = await su
    .collection("roles")
    .create({ name: `Only ${permissions.join("+")} ${randomUUID().slice(0, 6)}`, permissions });
  const user = await createUser();
  await su.collection("users").update(user.id, { roles: [role.id] });
  return user;
}

/** A PocketBase SDK client acting as `user` (or a guest), for checking rules through the REST API directly. */
export function pbAs(user: TestUser | null): PocketBase {
  const pb = new PocketBase(pbUrl());
  pb.autoCancellation(false);
  if (user) pb.authStore.save(user.token, null);
  return pb;
}

/** Count the requests the gateway sends to PocketBase while `run` executes. */
export async function countPocketBaseCalls<T>(run: () => Promise<T>): Promise<{ result: T; calls: number }> {
  // Only the calls `run` makes (followed through its async context, into the in-process gateway), not
  // those the gateway's background jobs make meanwhile on their own timers.
  const counter = { calls: 0 };
  const result = await pocketBaseCallCounter.run(counter, run);
  return { result, calls: counter.calls };
}

export { CSRF_HEADER };

/** The HTTP status PocketBase answered `run` with (200 when it succeeded). */
export async function restStatus(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (error) {
    if (error instanceof ClientResponseError) return error.status;
    throw error;
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A real (decodable) PNG of one colour, so PocketBase's content sniffing and thumbnails accept it. */
export function pngBytes(width = 4, height = 4, rgb: [number, number, number] = [31, 111, 235]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A file body (copied into a plain ArrayBuffer, as the DOM typings of Blob and File want). */
export const fileOf = (bytes: Uint8Array, name: string, type: string) =>
  new File([new Uint8Array(bytes)], name, { type });

/**
 * A GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec) with
 * one file bound to `variables.<fileVariable>`, as the web app's upload link sends it.
 */
export function multipartBody(
  query: string,
  fileVariable: string,
  file: Blob,
  fileName: string,
  variables: Record<string, unknown> = {},
): FormData {
  const form = new FormData();
  form.set("operations", JSON.stringify({ query, variables: { ...variables, [fileVariable]: null } }));
  form.set("map", JSON.stringify({ 0: [`variables.${fileVariable}`] }));
  form.set("0", file, fileName);
  return form;
}
