// Accounts for system jobs: the first administrator (production, scripts/ensure-admin.ts) and the
// demo church's personas (scripts/lib/seed.ts).
//
// This file ships in the gateway image (docker/gateway.Dockerfile copies it for ensure-admin.ts), so
// it imports nothing but the PocketBase SDK: no demo content, no development tools.
// gateway/test/docker-image.int.test.ts runs the image's entrypoint from exactly the copied files.
import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";

export async function findUser(system: PocketBase, email: string) {
  try {
    return await system.collection("users").getFirstListItem(system.filter("email = {:email}", { email }));
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return null;
    throw error;
  }
}

export async function roleIds(system: PocketBase): Promise<Map<string, string>> {
  const roles = await system.collection("roles").getFullList<{ id: string; name: string }>();
  return new Map(roles.map((r) => [r.name, r.id]));
}

/** Create a verified user with an active person and the given role (system job). */
export async function createAccount(
  system: PocketBase,
  account: { email: string; firstName: string; lastName: string; role: string | null },
  password: string,
  roles: Map<string, string>,
): Promise<void> {
  const person = await system
    .collection("people")
    .create({ firstName: account.firstName, lastName: account.lastName, recordStatus: "active" });
  await system.collection("users").create({
    email: account.email,
    password,
    passwordConfirm: password,
    name: `${account.firstName} ${account.lastName}`,
    verified: true,
    person: person.id,
    roles: account.role ? [roles.get(account.role)] : [],
    status: "active",
  });
}

/**
 * Production: make sure the first administrator from the environment exists. An existing account with
 * that email is left exactly as it is (no password reset, no role change).
 */
export async function ensureAdministrator(
  system: PocketBase,
  email: string,
  password: string,
): Promise<"created" | "exists"> {
  if (await findUser(system, email)) return "exists";
  const roles = await roleIds(system);
  await createAccount(
    system,
    { email, firstName: "Church", lastName: "Administrator", role: "Administrator" },
    password,
    roles,
  );
  return "created";
}
