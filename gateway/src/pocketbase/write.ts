import { ClientResponseError } from "pocketbase";
import { forbidden, pbCall } from "../errors.ts";
import { slugTaken } from "./slugs.ts";

/**
 * Write as the caller; when PocketBase refuses the write by rule (404 for a record the caller can
 * read, a bare 400 for a create), the caller lacks the right (e.g. live content without
 * publishContent): FORBIDDEN.
 */
export async function writeAsCaller<T>(
  run: () => Promise<T>,
  fieldAliases?: Record<string, string>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) throw forbidden();
    // A create refused by the rule is a 400 without field errors ("Failed to create record.").
    if (
      error instanceof ClientResponseError &&
      error.status === 400 &&
      !Object.keys((error.response?.data as object) ?? {}).length
    )
      throw forbidden();
    if (
      error instanceof ClientResponseError &&
      error.status === 400 &&
      (error.response?.data as Record<string, { code?: string }>)?.slug?.code === "validation_not_unique"
    ) {
      throw slugTaken();
    }
    return pbCall(() => Promise.reject(error), fieldAliases);
  }
}
