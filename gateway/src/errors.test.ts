import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import { ClientResponseError } from "pocketbase";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  badUserInput,
  conflict,
  fieldTaken,
  forbidden,
  fromPocketBase,
  pbCall,
  serviceUnavailable,
} from "./errors.ts";

const pbError = (status: number, data: Record<string, unknown> = {}) =>
  new ClientResponseError({
    url: "http://pb/api/collections/x/records",
    status,
    response: { status, message: "PocketBase says no.", data },
  });

/** What fromPocketBase throws for `error`. */
function translate(error: unknown, aliases?: Record<string, string>): unknown {
  try {
    fromPocketBase(error, aliases);
  } catch (thrown) {
    return thrown;
  }
  throw new Error("fromPocketBase returned");
}
const extensionsOf = (error: unknown) => (error as GraphQLError).extensions;

describe("fromPocketBase", () => {
  it("turns a 400 with field data into BAD_USER_INPUT with fieldErrors and translatable fieldErrorCodes", () => {
    const error = translate(
      pbError(400, {
        email: { code: "validation_not_unique", message: "Value must be unique." },
        firstName: { code: "validation_required", message: "Cannot be blank." },
        lastName: { code: "validation_max_text_constraint", message: "Must be less than 50 character(s)." },
        phone: { code: "validation_something_new", message: "Odd." },
      }),
    );
    expect(error).toBeInstanceOf(GraphQLError);
    expect(extensionsOf(error)).toEqual({
      code: "BAD_USER_INPUT",
      fieldErrors: {
        email: "Value must be unique.",
        firstName: "Cannot be blank.",
        lastName: "Must be less than 50 character(s).",
        phone: "Odd.",
      },
      fieldErrorCodes: { email: "taken", firstName: "required", lastName: "too_long", phone: "invalid" },
    });
  });

  it("renames fields to the names the form uses", () => {
    const error = translate(
      pbError(400, {
        oldPassword: { code: "validation_invalid_old_password", message: "Missing or invalid old password." },
      }),
      { oldPassword: "currentPassword" },
    );
    expect(extensionsOf(error)).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrorCodes: { currentPassword: "wrong_password" },
    });
  });

  it("a 400 without field data is still BAD_USER_INPUT", () => {
    expect(extensionsOf(translate(pbError(400)))).toEqual({
      code: "BAD_USER_INPUT",
      fieldErrors: {},
      fieldErrorCodes: {},
    });
  });

  it("a file over the size limit is PAYLOAD_TOO_LARGE, keeping the field error", () => {
    const error = translate(
      pbError(400, {
        logo: { code: "validation_file_size_limit", message: "File exceeds the maximum allowed size." },
      }),
    );
    expect(extensionsOf(error)).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      fieldErrorCodes: { logo: "file_too_large" },
    });
  });

  it("a file of the wrong type is UNSUPPORTED_FILE_TYPE, keeping the field error", () => {
    const error = translate(
      pbError(400, { logo: { code: "validation_invalid_mime_type", message: "Mime type must be one of …" } }),
    );
    expect(extensionsOf(error)).toMatchObject({
      code: "UNSUPPORTED_FILE_TYPE",
      fieldErrorCodes: { logo: "unsupported_file_type" },
    });
  });

  it.each([
    [401, "UNAUTHENTICATED"],
    [403, "FORBIDDEN"],
    [404, "NOT_FOUND"],
    [429, "RATE_LIMITED"],
    [0, "SERVICE_UNAVAILABLE"],
    [502, "SERVICE_UNAVAILABLE"],
    [503, "SERVICE_UNAVAILABLE"],
    [504, "SERVICE_UNAVAILABLE"],
  ])("status %i → %s, without PocketBase's own message", (status, code) => {
    const error = translate(pbError(status));
    expect(extensionsOf(error)?.code).toBe(code);
    expect((error as Error).message).not.toContain("PocketBase says no.");
  });

  it("a hidden record (404) never says more than not found", () => {
    expect((translate(pbError(404)) as Error).message).toBe("Not found.");
  });

  it("an unreachable PocketBase (status 0: connection refused, aborted) is SERVICE_UNAVAILABLE", () => {
    const refused = new ClientResponseError({ status: 0, originalError: new TypeError("fetch failed") });
    expect(extensionsOf(translate(refused))?.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("rate limiting tells when to retry", () => {
    expect(extensionsOf(translate(pbError(429)))).toEqual({ code: "RATE_LIMITED", retryAfterSeconds: 60 });
  });

  it("rethrows what it does not recognise unchanged, so Yoga masks it", () => {
    const internal = pbError(500);
    expect(translate(internal)).toBe(internal);
    const bug = new TypeError("x is undefined");
    expect(translate(bug)).toBe(bug);
  });

  it("passes our own GraphQL errors through unchanged", () => {
    const ours = badUserInput({ name: { code: "required", message: "This field is required." } });
    expect(translate(ours)).toBe(ours);
  });
});

describe("pbCall", () => {
  it("returns the result of a successful call", async () => {
    await expect(pbCall(async () => 42)).resolves.toBe(42);
  });

  it("translates a failed call", async () => {
    await expect(pbCall(() => Promise.reject(pbError(404)))).rejects.toMatchObject({
      extensions: { code: "NOT_FOUND" },
    });
  });

  it("applies field aliases", async () => {
    const failing = () =>
      Promise.reject(
        pbError(400, { oldPassword: { code: "validation_invalid_old_password", message: "Wrong." } }),
      );
    await expect(pbCall(failing, { oldPassword: "currentPassword" })).rejects.toMatchObject({
      extensions: { fieldErrors: { currentPassword: "Wrong." } },
    });
  });
});

describe("badUserInput", () => {
  it("carries messages and codes per field, and a general message", () => {
    const error = badUserInput({ email: { code: "invalid_email", message: "Enter a valid email address." } });
    expect(error.message).toBe("Please correct the highlighted fields.");
    expect(error.extensions).toEqual({
      code: "BAD_USER_INPUT",
      fieldErrors: { email: "Enter a valid email address." },
      fieldErrorCodes: { email: "invalid_email" },
    });
  });
});

describe("the error constructors", () => {
  it("carry a reason only when given one, and the code always wins", () => {
    expect(forbidden().extensions).toEqual({ code: "FORBIDDEN" });
    expect(forbidden("This account is suspended.", "suspended").extensions).toEqual({
      code: "FORBIDDEN",
      reason: "suspended",
    });
    expect(serviceUnavailable().message).toBe("We can't reach the server right now. Please try again.");
    expect(serviceUnavailable("Too slow.", "render_timeout").extensions).toEqual({
      code: "SERVICE_UNAVAILABLE",
      reason: "render_timeout",
    });
    expect(
      conflict("Newer text.", "stale_revision", { currentRevision: 3, code: "NOT_A_CODE" }).extensions,
    ).toEqual({
      code: "CONFLICT",
      reason: "stale_revision",
      currentRevision: 3,
    });
  });

  it("name the field a taken value belongs to", () => {
    const error = fieldTaken(
      "slug",
      "This address is already used by another item.",
      "This address is already in use.",
    );
    expect(error.message).toBe("This address is already used by another item.");
    expect(error.extensions).toEqual({
      code: "CONFLICT",
      fieldErrors: { slug: "This address is already in use." },
      fieldErrorCodes: { slug: "taken" },
    });
    expect(fieldTaken("email", "Already there.").extensions.fieldErrors).toEqual({ email: "Already there." });
  });

  it("are the only way the gateway builds an error (yoga.ts only reshapes errors for the response)", () => {
    const root = fileURLToPath(new URL(".", import.meta.url));
    const offenders = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter(
        (file) =>
          file.endsWith(".ts") &&
          !file.endsWith(".test.ts") &&
          !file.includes("__generated__") &&
          file !== "errors.ts" &&
          file !== "yoga.ts",
      )
      .filter((file) => readFileSync(join(root, file), "utf8").includes("new GraphQLError("));
    expect(offenders).toEqual([]);
  });
});
