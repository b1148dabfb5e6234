import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway } from "../src/index.ts";
import {
  countPocketBaseCalls,
  createUser,
  CSRF_HEADER,
  GqlClient,
  PASSWORD,
  testConfig,
  testGateway,
} from "./helpers.ts";

/** Raw HTTP POST to /graphql with exactly the headers given (fetch would add its own). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: Buffer | null,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL("/graphql", url);
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

let gateway: Gateway;
beforeAll(async () => {
  gateway = await testGateway();
});
afterAll(() => gateway.close());

describe("request and upload size limits", () => {
  it("refuses an oversized logo with PAYLOAD_TOO_LARGE before any PocketBase call, without a stack", async () => {
    const admin = await createUser({ roles: ["Administrator"] });
    const client = new GqlClient(gateway);
    await client.request(`mutation($i: SignInInput!) { signIn(input: $i) { user { id } } }`, {
      i: { email: admin.email, password: PASSWORD },
    });
    await client.request(`{ viewer { user { id } } }`); // the viewer is now known: any PocketBase call below is the upload's
    const form = new FormData();
    form.append(
      "operations",
      JSON.stringify({
        query: "mutation($f: File!) { uploadLogo(file: $f) { churchName } }",
        variables: { f: null },
      }),
    );
    form.append("map", JSON.stringify({ 0: ["variables.f"] }));
    form.append("0", new File([new Uint8Array(12 * 1024 * 1024)], "huge.png", { type: "image/png" }));
    const { result: text, calls } = await countPocketBaseCalls(async () => {
      const response = await gateway.yoga.fetch("http://flock.test/graphql", {
        method: "POST",
        body: form,
        headers: { [CSRF_HEADER]: "1", cookie: `flock_session=${client.cookie}` },
      });
      return response.text();
    });
    expect(JSON.parse(text).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    expect(calls).toBe(0);
    expect(text).not.toMatch(/at \w+ \(/);
  });

  it("over HTTP, refuses a body over the limit from its Content-Length, before reading it", async () => {
    const server = createGateway(testConfig({ port: 0 }));
    const url = await server.listen();
    try {
      const upload = await rawPost(
        url,
        {
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(12 * 1024 * 1024),
          [CSRF_HEADER]: "1",
        },
        null,
      );
      expect(upload.status).toBe(413);
      expect(JSON.parse(upload.text).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");

      const json = await rawPost(
        url,
        { "content-type": "application/json", "content-length": String(2_000_000) },
        null,
      );
      expect(json.status).toBe(413);

      const chunked = await rawPost(
        url,
        { "content-type": "application/json", "transfer-encoding": "chunked" },
        Buffer.from('{"query":"{ ping }"}'),
      );
      expect(chunked.status).toBe(411);

      const small = Buffer.from('{"query":"{ ping }"}');
      const ok = await rawPost(
        url,
        { "content-type": "application/json", "content-length": String(small.length) },
        small,
      );
      expect(ok).toEqual({ status: 200, text: '{"data":{"ping":true}}' });
    } finally {
      await server.close();
    }
  });
});
