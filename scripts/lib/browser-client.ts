// The benches' client: a GraphQL request as the web app's Apollo link sends it (its Accept, the CSRF
// header, the session cookie), the web's own operations with __typename as Apollo's cache adds it, and
// signing in through the gateway.
import { addTypenameToDocument } from "@apollo/client/utilities";
import { parse, print } from "graphql";
import { webOperations } from "./web-operations.ts";

/** What the web's Apollo link sends as Accept (web/src/lib/http-link.ts). */
export const ACCEPT = "application/graphql-response+json,application/json;q=0.9";
export const CSRF_HEADER = "x-graphql-yoga-csrf";
export const SESSION_COOKIE = "flock_session";

/** A web operation (web/src/**\/*.graphql) by name, with its fragments and __typename, as the browser sends it. */
export async function webOperation(name: string): Promise<string> {
  const query = (await webOperations()).get(name);
  if (!query) throw new Error(`The web app has no operation named ${name}.`);
  return print(addTypenameToDocument(parse(query)));
}

/** Signs in through the gateway as the web does (its SignIn operation); the session cookie's value. */
export async function signInAsBrowser(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { accept: ACCEPT, "content-type": "application/json", [CSRF_HEADER]: "1" },
    body: JSON.stringify({
      operationName: "SignIn",
      variables: { input: { email, password } },
      query: await webOperation("SignIn"),
    }),
  });
  const text = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => new RegExp(`^${SESSION_COOKIE}=([^;]+)`).exec(c)?.[1])
    .find(Boolean);
  if (!response.ok || text.includes('"errors"') || !cookie)
    throw new Error(`${email} could not sign in: ${response.status} ${text.slice(0, 300)}`);
  return cookie;
}
