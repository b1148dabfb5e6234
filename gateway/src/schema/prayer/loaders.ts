import DataLoader from "dataloader";
import type PocketBase from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type { PrayerRequestPrivateRecord } from "../../pocketbase/records.ts";
import { orChains } from "../../pocketbase/filters.ts";
import { todayIn } from "../../pocketbase/dates.ts";
import { readsEveryRequester } from "../../access/prayer.ts";
import { deviceKey } from "./device.ts";

/**
 * Per-request batching of what each PrayerRequest on a page needs about the caller (QUALITY P2: one
 * PocketBase call per collection for a whole wall page, not one per request). Everything the caller
 * learns is read with the caller's token, so the rules decide; the one exception is a visitor's own
 * "I prayed" marks, see `prayedToday`.
 */
export interface PrayerLoaders {
  /** Who asked, as the caller may read it: only pastoral staff and the requester get a row. */
  privateRow: DataLoader<string, PrayerRequestPrivateRecord | null>;
  /** The caller said "I prayed" today (church-local day): per user, or per device for visitors. */
  prayedToday: DataLoader<string, boolean>;
  /** The caller flagged the request. */
  flagged: DataLoader<string, boolean>;
  /** A group's name by its id, as the caller may read the group (null when they may not). */
  groupName: DataLoader<string, string | null>;
}

/** PocketBase's largest page: every chain's rows come back in one call. */
const PAGE = 1_000;

async function rowsFor<T>(
  pb: PocketBase,
  collection: string,
  requestIds: readonly string[],
  where: string,
  fields: string,
): Promise<T[]> {
  const clauses = [...new Set(requestIds)].map((id) => pb.filter("request = {:id}", { id }));
  const chains = orChains(clauses, 3_200 - where.length);
  const pages = await Promise.all(
    chains.map((chain) =>
      pbCall(() =>
        pb.collection(collection).getFullList<T>({ batch: PAGE, filter: `${where} && (${chain})`, fields }),
      ),
    ),
  );
  return pages.flat();
}

/**
 * The caller's own rows of a collection whose list rule scopes them to the caller, read WITHOUT a
 * filter; null when they may not fit in one page. A filtered list that comes back empty (nothing
 * prayed today, nothing flagged: the usual case) is answered after a random 0–500 ms sleep once more
 * than 3 came from one IP in 3 s (PocketBase's randomizedThrottle), and a church is a few IPs.
 */
const OWN_PAGE = 200;
async function ownRows<T>(
  pb: PocketBase,
  collection: string,
  sort: string,
  fields: string,
  enough?: (page: T[]) => boolean,
): Promise<T[] | null> {
  const page = await pbCall(() =>
    pb.collection(collection).getList<T>(1, OWN_PAGE, { sort, fields, skipTotal: true }),
  );
  return page.items.length < OWN_PAGE || enough?.(page.items) ? page.items : null;
}

const byContext = new WeakMap<GatewayContext, PrayerLoaders>();

/** The request's loaders, created on first use. */
export function prayerLoadersOf(ctx: GatewayContext): PrayerLoaders {
  let loaders = byContext.get(ctx);
  if (!loaders) {
    loaders = createLoaders(ctx);
    byContext.set(ctx, loaders);
  }
  return loaders;
}

/**
 * Forget what was loaded: a subscription keeps one context for its whole life, and each event must be
 * answered as things are now (a prayer said since the last event, a new day).
 */
export function forgetPrayerLoaders(ctx: GatewayContext): void {
  byContext.delete(ctx);
}

function createLoaders(ctx: GatewayContext): PrayerLoaders {
  return {
    privateRow: new DataLoader(async (ids) => {
      // The rules let no guest read a private row: no call to make.
      const viewer = await ctx.viewer();
      if (!viewer) return ids.map(() => null);
      const fields = "id,request,user,person,submitterName,submitterEmail";
      // Others see only the rows of their own requests (the rule), so those need no filter; pastoral
      // staff see every row, and the filtered read finds one for each request.
      const own = readsEveryRequester(viewer)
        ? null
        : await ownRows<PrayerRequestPrivateRecord>(ctx.pb, "prayer_request_private", "-created,-id", fields);
      const rows =
        own ??
        (await rowsFor<PrayerRequestPrivateRecord>(
          ctx.pb,
          "prayer_request_private",
          ids,
          "id != ''",
          fields,
        ));
      const byRequest = new Map(rows.map((row) => [row.request, row]));
      return ids.map((id) => byRequest.get(id) ?? null);
    }),

    prayedToday: new DataLoader(async (ids) => {
      const [viewer, settings] = await Promise.all([ctx.viewer(), ctx.publicSettings.get()]);
      const day = todayIn(settings.timezone);
      let rows: Array<{ request: string }>;
      if (viewer) {
        // The rule gives members their own marks only: the newest days first, so today's are at the top
        // (a full page that reaches an earlier day holds all of them).
        const own = await ownRows<{ request: string; day: string }>(
          ctx.pb,
          "prayer_marks",
          "-day,-id",
          "request,day",
          (page) => page[page.length - 1]!.day < day,
        );
        rows = own
          ? own.filter((mark) => mark.day === day)
          : await rowsFor(
              ctx.pb,
              "prayer_marks",
              ids,
              ctx.pb.filter("user = {:user} && day = {:day}", { user: viewer.id, day }),
              "request",
            );
      } else {
        const key = deviceKey(ctx);
        if (!key) return ids.map(() => false);
        // Documented exception (docs/ARCHITECTURE.md): a guest token cannot read marks, so the system
        // client reads this device's own marks, addressed by the SHA-256 of the secret only this browser
        // holds; only which of these requests were marked today goes back.
        const system = await ctx.system.get();
        rows = await rowsFor(
          system,
          "prayer_marks",
          ids,
          system.filter("deviceKey = {:key} && day = {:day}", { key, day }),
          "request",
        );
      }
      const marked = new Set(rows.map((row) => row.request));
      return ids.map((id) => marked.has(id));
    }),

    groupName: new DataLoader(async (ids) => {
      // Only where a read did not expand the group (the moderation queue does): one call for the page.
      const clauses = ids.map((id) => ctx.pb.filter("id = {:id}", { id }));
      const groups = (
        await Promise.all(
          orChains(clauses, 3_200).map((chain) =>
            pbCall(() =>
              ctx.pb
                .collection("groups")
                .getFullList<{ id: string; name: string }>({ batch: PAGE, filter: chain, fields: "id,name" }),
            ),
          ),
        )
      ).flat();
      const names = new Map(groups.map((group) => [group.id, group.name]));
      return ids.map((id) => names.get(id) ?? null);
    }),

    flagged: new DataLoader(async (ids) => {
      const viewer = await ctx.viewer();
      if (!viewer) return ids.map(() => false);
      // The rule gives members their own flags (moderators see everyone's: kept to the caller's here).
      const own = await ownRows<{ request: string; user: string }>(
        ctx.pb,
        "prayer_flags",
        "-created,-id",
        "request,user",
      );
      const rows = own
        ? own.filter((flag) => flag.user === viewer.id)
        : await rowsFor<{ request: string }>(
            ctx.pb,
            "prayer_flags",
            ids,
            ctx.pb.filter("user = {:user}", { user: viewer.id }),
            "request",
          );
      const flagged = new Set(rows.map((row) => row.request));
      return ids.map((id) => flagged.has(id));
    }),
  };
}
