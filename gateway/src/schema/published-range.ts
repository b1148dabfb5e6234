import type PocketBase from "pocketbase";
import { Temporal } from "temporal-polyfill";
import { badUserInput } from "../errors.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";

/**
 * The `publishedAfter` / `publishedBefore` filters of the public lists (posts, sermons): a half-open
 * range on `publishedAt`, [publishedAfter, publishedBefore). Each is an ISO-8601 date-time with an offset
 * ("2026-11-01T00:00:00Z", "2026-11-01T00:00:00-05:00"); anything else, or a range that ends before it
 * starts, is BAD_USER_INPUT with the field's code. Items never published (drafts) have no publishedAt,
 * so either filter leaves them out.
 */
export function publishedRangeFilter(
  pb: PocketBase,
  publishedAfter?: string | null,
  publishedBefore?: string | null,
): string[] {
  const after = publishedAfter == null ? null : instant("publishedAfter", publishedAfter);
  const before = publishedBefore == null ? null : instant("publishedBefore", publishedBefore);
  if (after && before && Temporal.Instant.compare(before, after) <= 0) {
    throw badUserInput({
      publishedBefore: {
        code: "before_start",
        message: "publishedBefore must be later than publishedAfter.",
      },
    });
  }
  return [
    after
      ? pb.filter("publishedAt != '' && publishedAt >= {:after}", {
          after: toPocketBaseDate(after.epochMilliseconds),
        })
      : "",
    before
      ? pb.filter("publishedAt != '' && publishedAt < {:before}", {
          before: toPocketBaseDate(before.epochMilliseconds),
        })
      : "",
  ].filter(Boolean);
}

function instant(field: string, value: string): Temporal.Instant {
  try {
    return Temporal.Instant.from(value);
  } catch {
    throw badUserInput({
      [field]: {
        code: "invalid_date",
        message: "Use an ISO 8601 date-time with an offset, e.g. 2026-11-01T00:00:00Z.",
      },
    });
  }
}
