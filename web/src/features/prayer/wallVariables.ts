import type { PrayerWallFilter } from "../../gql/types.ts";

export const WALL_PAGE_SIZE = 20;
/** The wall query's variables: the live events update exactly these cache entries. */
export const wallVariables = (filter: PrayerWallFilter) => ({ first: WALL_PAGE_SIZE, filter });
