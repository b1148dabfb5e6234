import { GraphQLError } from "graphql";
import { ClientResponseError } from "pocketbase";
import { fromPocketBaseDate } from "./pocketbase/dates.ts";

/** The error codes of PRODUCT.md §8; the web app maps each to a translated sentence. */
export const ErrorCode = {
  UNAUTHENTICATED: "UNAUTHENTICATED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  BAD_USER_INPUT: "BAD_USER_INPUT",
  CONFLICT: "CONFLICT",
  RATE_LIMITED: "RATE_LIMITED",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_FILE_TYPE: "UNSUPPORTED_FILE_TYPE",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One field's problem: a stable code the UI translates, and an English message for integrators. */
export interface FieldError {
  code: string;
  message: string;
}
export type FieldErrors = Record<string, FieldError>;

function flockError(
  code: ErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  // `code` last: extensions borrowed from another error (badUserInput's) must not override it.
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

export const unauthenticated = () => flockError(ErrorCode.UNAUTHENTICATED, "Please sign in to continue.");
/** A stable machine-readable key in snake_case ("suspended"); the type refuses capitals at compile time. */
export type Reason = Lowercase<string>;

export const forbidden = (message = "You don't have access to this.", reason?: Reason) =>
  flockError(ErrorCode.FORBIDDEN, message, reason ? { reason } : {});
export const notFound = () => flockError(ErrorCode.NOT_FOUND, "Not found.");
/**
 * `reason` is a stable machine-readable key: the web app shows its own (translated) sentence for it
 * and falls back to the English `message`. `details` are further extensions the client needs (the
 * newer text of a stale revision).
 */
export const conflict = (message: string, reason?: Reason, details: Record<string, unknown> = {}) =>
  flockError(ErrorCode.CONFLICT, message, { ...(reason ? { reason } : {}), ...details });
/** A value already used where it must be unique: CONFLICT, with the field to show `fieldMessage` next to. */
export const fieldTaken = (field: string, message: string, fieldMessage = message) =>
  flockError(ErrorCode.CONFLICT, message, {
    fieldErrors: { [field]: fieldMessage },
    fieldErrorCodes: { [field]: "taken" },
  });
export const rateLimited = (retryAfterSeconds: number) =>
  flockError(ErrorCode.RATE_LIMITED, "Too many attempts. Try again later.", { retryAfterSeconds });
export const serviceUnavailable = (
  message = "We can't reach the server right now. Please try again.",
  reason?: Reason,
) => flockError(ErrorCode.SERVICE_UNAVAILABLE, message, reason ? { reason } : {});
export const payloadTooLarge = (maxBytes: number) =>
  flockError(
    ErrorCode.PAYLOAD_TOO_LARGE,
    `The file is too large (limit ${Math.round(maxBytes / 1024 / 1024)} MB).`,
    { maxBytes },
  );
export const unsupportedFileType = (allowed: readonly string[]) =>
  flockError(
    ErrorCode.UNSUPPORTED_FILE_TYPE,
    `This file type is not allowed. Allowed: ${allowed.join(", ")}.`,
    { allowed },
  );

/**
 * A save that started from an older revision than the stored one (posts, pages, sermons): refuse, and
 * send the newer text along (`body`: the Markdown the editor edits).
 */
export function staleRevision(current: {
  revision: number;
  title: string;
  body: string;
  updated: string;
}): GraphQLError {
  // The web app's autosave matches this reason (web/src/editor/autosave/autosave.ts).
  return conflict(
    "Someone saved a newer version while you were editing. Choose which text to keep.",
    "stale_revision",
    {
      currentRevision: current.revision,
      currentTitle: current.title,
      currentBody: current.body,
      currentUpdated: fromPocketBaseDate(current.updated),
    },
  );
}

/** Validation failure: `fieldErrors` is {field: message}; `fieldErrorCodes` is {field: code} for translation. */
export function badUserInput(
  fieldErrors: FieldErrors,
  message = "Please correct the highlighted fields.",
): GraphQLError {
  return flockError(ErrorCode.BAD_USER_INPUT, message, {
    fieldErrors: Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v.message])),
    fieldErrorCodes: Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v.code])),
  });
}

/** PocketBase's validation codes → ours (the rest pass through as `invalid`). */
const PB_FIELD_CODES: Record<string, string> = {
  validation_required: "required",
  validation_not_unique: "taken",
  validation_invalid_email: "invalid_email",
  validation_is_email: "invalid_email",
  validation_min_text_constraint: "too_short",
  validation_max_text_constraint: "too_long",
  validation_length_out_of_range: "too_long",
  validation_values_mismatch: "mismatch",
  validation_file_size_limit: "file_too_large",
  validation_invalid_mime_type: "unsupported_file_type",
  validation_invalid_token: "invalid_token",
  validation_invalid_token_claims: "invalid_token",
  validation_invalid_old_password: "wrong_password",
  // Serving's hook (pb_hooks/lib/serving.js).
  validation_need_full: "need_full",
  validation_not_on_team: "not_on_team",
  validation_not_on_position: "not_on_position",
  validation_plan_done: "plan_done",
  validation_already_answered: "already_answered",
  validation_swap_taken: "swap_taken",
  validation_swap_self: "swap_self",
  validation_signup_closed: "signup_closed",
  validation_plan_not_published: "plan_not_published",
  validation_not_accepted: "not_accepted",
  // Check-in's hook (pb_hooks/lib/checkin.js).
  validation_checkin_closed: "checkin_closed",
  validation_room_not_open: "room_not_open",
  validation_room_full: "room_full",
  validation_ratio: "ratio",
  validation_clearance_required: "clearance_required",
  validation_person_archived: "person_archived",
  validation_no_code: "no_code",
  validation_checked_out: "checked_out",
  validation_wrong_code: "wrong_code",
  validation_code_required: "code_required",
  // Giving's hook (pb_hooks/lib/giving.js).
  validation_batch_closed: "batch_closed",
  validation_batch_not_empty: "batch_not_empty",
  validation_totals_mismatch: "totals_mismatch",
  validation_reason_required: "reason_required",
  validation_splits_invalid: "splits_invalid",
  validation_splits_sum: "splits_sum",
  validation_fund_not_found: "fund_not_found",
  validation_fund_closed: "fund_closed",
  validation_person_not_found: "person_not_found",
};

/**
 * Translate a PocketBase SDK error into a GraphQL error of our catalogue. Rules that hide a record
 * answer 404, which stays NOT_FOUND (never reveal that a hidden record exists).
 * Anything unrecognised is rethrown as-is so Yoga masks it.
 */
export function fromPocketBase(error: unknown, fieldAliases: Record<string, string> = {}): never {
  if (error instanceof GraphQLError) throw error;
  if (!(error instanceof ClientResponseError)) throw error;
  if (error.status === 0 || error.status >= 502) throw serviceUnavailable();
  switch (error.status) {
    case 400: {
      const data = (error.response?.data ?? {}) as Record<string, { code?: string; message?: string }>;
      const fieldErrors: FieldErrors = {};
      for (const [field, detail] of Object.entries(data)) {
        const code = PB_FIELD_CODES[detail.code ?? ""] ?? "invalid";
        fieldErrors[fieldAliases[field] ?? field] = { code, message: detail.message ?? "Invalid value." };
      }
      if (Object.values(fieldErrors).some((e) => e.code === "file_too_large")) {
        throw flockError(
          ErrorCode.PAYLOAD_TOO_LARGE,
          "The file is too large.",
          badUserInput(fieldErrors).extensions,
        );
      }
      // PocketBase sniffs the content: a file whose declared type passed the gateway's check but whose
      // bytes are something else (an SVG or HTML labelled image/png) is an upload-type problem too (§8).
      if (Object.values(fieldErrors).some((e) => e.code === "unsupported_file_type")) {
        throw flockError(
          ErrorCode.UNSUPPORTED_FILE_TYPE,
          "This file type is not allowed.",
          badUserInput(fieldErrors).extensions,
        );
      }
      throw badUserInput(fieldErrors);
    }
    case 401:
      throw unauthenticated();
    case 403:
      throw forbidden();
    case 404:
      throw notFound();
    case 429:
      throw rateLimited(60);
    default:
      throw error;
  }
}

/** Run a PocketBase call and translate its failure. */
export async function pbCall<T>(run: () => Promise<T>, fieldAliases?: Record<string, string>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return fromPocketBase(error, fieldAliases);
  }
}
