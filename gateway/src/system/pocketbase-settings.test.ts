import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { configFromEnv, s3FromEnv, type GatewayConfig } from "../config.ts";
import type { SettingsRecord } from "../pocketbase/records.ts";
import { s3Settings, syncPocketBaseSettings } from "./pocketbase-settings.ts";

// Files in S3 (docs/DEPLOYMENT.md): the S3_* variables, all or none, become PocketBase's `s3` and
// `backups.s3` settings at start-up; without them PocketBase's own setting is left alone.

const S3_ENV = {
  S3_ENDPOINT: "https://s3.eu-west-1.amazonaws.com/",
  S3_BUCKET: "flock-grace",
  S3_REGION: "eu-west-1",
  S3_ACCESS_KEY: "AKIAGRACE",
  S3_SECRET: "s3-secret-of-grace",
};

const expected = {
  enabled: true,
  endpoint: "https://s3.eu-west-1.amazonaws.com",
  bucket: "flock-grace",
  region: "eu-west-1",
  accessKey: "AKIAGRACE",
  secret: "s3-secret-of-grace",
  forcePathStyle: false,
};

describe("s3FromEnv", () => {
  it("is null when no S3 variable is set", () => {
    expect(s3FromEnv({})).toBeNull();
    expect(s3FromEnv({ S3_FORCE_PATH_STYLE: "true" })).toBeNull();
  });

  it("reads all five, the secret also from S3_SECRET_FILE, and the path style", () => {
    const { enabled: _, ...storage } = expected;
    expect(s3FromEnv(S3_ENV)).toEqual(storage);
    const dir = mkdtempSync(join(tmpdir(), "flock-s3-"));
    writeFileSync(join(dir, "secret"), "from-a-file\n");
    const { S3_SECRET: _secret, ...rest } = S3_ENV;
    expect(
      s3FromEnv({ ...rest, S3_SECRET_FILE: join(dir, "secret"), S3_FORCE_PATH_STYLE: "true" }),
    ).toMatchObject({ secret: "from-a-file", forcePathStyle: true });
  });

  it("names what is missing when only some are set, and never prints the secret", () => {
    const attempt = () => s3FromEnv({ S3_BUCKET: "b", S3_SECRET: "hush-hush" });
    expect(attempt).toThrow(/missing: S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY\.$/);
    expect(attempt).not.toThrow(/hush-hush/);
  });

  it("refuses an endpoint that is not a URL and a path style that is not true or false", () => {
    expect(() => s3FromEnv({ ...S3_ENV, S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT must be a URL/);
    expect(() => s3FromEnv({ ...S3_ENV, S3_FORCE_PATH_STYLE: "yes" })).toThrow(
      /S3_FORCE_PATH_STYLE must be true or false/,
    );
  });

  it("is part of the gateway's configuration", () => {
    const base = { PB_SUPERUSER_EMAIL: "system@grace.example", PB_SUPERUSER_PASSWORD: "x".repeat(20) };
    expect(configFromEnv(base).s3).toBeNull();
    expect(configFromEnv({ ...base, ...S3_ENV }).s3).toMatchObject({ bucket: "flock-grace" });
  });
});

describe("PocketBase's S3 settings", () => {
  it("maps the bucket to both the files' storage and the backups' storage", () => {
    const settings = s3Settings(s3FromEnv(S3_ENV)!);
    expect(settings).toEqual({ s3: expected, backups: { s3: expected } });
    // Only `s3` inside backups: PocketBase merges, so the backups' schedule stays as it was.
    expect(Object.keys(settings.backups)).toEqual(["s3"]);
  });

  /** What syncPocketBaseSettings sends to PocketBase's settings, from a stand-in client. */
  async function sentSettings(s3: GatewayConfig["s3"]) {
    const sent: Record<string, unknown>[] = [];
    const system = {
      settings: { update: async (body: Record<string, unknown>) => void sent.push(body) },
      collections: { update: async () => undefined },
    } as unknown as PocketBase;
    const config = { publicUrl: "https://grace.example.org", smtp: null, s3 } as GatewayConfig;
    const church = { churchName: "Grace", brandColor: "#2f5d8a", locale: "en" } as SettingsRecord;
    await syncPocketBaseSettings(system, config, church);
    return sent[0]!;
  }

  it("is applied at start-up with the rest of PocketBase's settings", async () => {
    const body = await sentSettings(s3FromEnv(S3_ENV));
    expect(body.s3).toEqual(expected);
    expect(body.backups).toEqual({ s3: expected });
    expect(body.meta).toMatchObject({ appURL: "https://grace.example.org" });
  });

  it("leaves PocketBase's own storage setting alone without S3_*", async () => {
    const body = await sentSettings(null);
    expect(body).not.toHaveProperty("s3");
    expect(body).not.toHaveProperty("backups");
  });
});
