import { afterAll, beforeAll, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { createUser, CSRF_HEADER, GqlClient, PASSWORD, testGateway } from "./helpers.ts";

let gateway: Gateway;
beforeAll(async () => {
  gateway = await testGateway();
});
afterAll(() => gateway.server.close());

it("refuses an upload over the multipart limit while parsing, with PAYLOAD_TOO_LARGE and no stack", async () => {
  const admin = await createUser({ roles: ["Administrator"] });
  const client = new GqlClient(gateway);
  await client.request(`mutation($i: SignInInput!) { signIn(input: $i) { user { id } } }`, { i: { email: admin.email, password: PASSWORD } });
  const form = new FormData();
  form.append("operations", JSON.stringify({ query: "mutation($f: File!) { uploadLogo(file: $f) { churchName } }", variables: { f: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.f"] }));
  form.append("0", new File([new Uint8Array(12 * 1024 * 1024)], "huge.png", { type: "image/png" }));
  const response = await gateway.yoga.fetch("http://flock.test/graphql", {
    method: "POST",
    body: form,
    headers: { [CSRF_HEADER]: "1", cookie: `flock_session=${client.cookie}` },
  });
  const text = await response.text();
  expect(response.status).toBe(413);
  expect(JSON.parse(text).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
  expect(text).not.toMatch(/at \w+ \(/);
});
