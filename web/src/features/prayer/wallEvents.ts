import type { PrayerCardFragment, PrayerCardLiveFragment, PrayerWallQuery } from "./prayer.generated.ts";
import type { PrayerWallFilter, WallEventKind } from "../../gql/types.ts";

export interface WallEvent {
  kind: WallEventKind;
  id?: string | null;
  request?: PrayerCardLiveFragment | null;
}

/** The viewer's own state of a request, when the cache knows nothing of it yet. */
export const FRESH_VIEWER_STATE = { prayedToday: false, isMine: false, flaggedByMe: false } as const;

/** Whether a request belongs on the wall list shown with `filter` (pastoral ones never do). */
export function belongsOnWall(
  request: Pick<PrayerCardFragment, "status" | "visibility">,
  filter: PrayerWallFilter,
): boolean {
  if (request.visibility === "PASTORAL") return false;
  return filter === "ANSWERED"
    ? request.status === "ANSWERED"
    : request.status === "APPROVED" || request.status === "ANSWERED";
}

/**
 * One live event applied to a cached wall list: a request that now belongs and isn't shown goes on
 * top (newest first), one that no longer belongs (rejected, flagged back to moderation, archived)
 * goes away. Changed fields of a shown request need nothing here: Apollo's cache updates it by id.
 * Answers the new list (or null when nothing changed) and whether a request was added.
 */
export function applyWallEvent(
  wall: PrayerWallQuery,
  event: WallEvent,
  filter: PrayerWallFilter,
  known: Pick<PrayerCardFragment, keyof typeof FRESH_VIEWER_STATE> = FRESH_VIEWER_STATE,
): { wall: PrayerWallQuery | null; added: boolean } {
  const edges = wall.prayerWall.edges;
  const id = event.request?.id ?? event.id;
  if (!id || event.kind === "RESYNC") return { wall: null, added: false };
  const shown = edges.some((edge) => edge.node.id === id);
  const belongs = event.kind !== "REMOVED" && !!event.request && belongsOnWall(event.request, filter);
  if (shown && !belongs) {
    return {
      wall: {
        ...wall,
        prayerWall: { ...wall.prayerWall, edges: edges.filter((edge) => edge.node.id !== id) },
      },
      added: false,
    };
  }
  if (!shown && belongs && event.request) {
    const edge = { __typename: "PrayerRequestEdge" as const, node: { ...event.request, ...known } };
    return { wall: { ...wall, prayerWall: { ...wall.prayerWall, edges: [edge, ...edges] } }, added: true };
  }
  return { wall: null, added: false };
}
