import type { Resolvers } from "../__generated__/types.ts";

/** The prayer wall, moderation and "I prayed" (filled in by the prayer work). */
export const prayerResolvers: Resolvers = {};
