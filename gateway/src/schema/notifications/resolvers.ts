import type { Resolvers } from "../__generated__/types.ts";

/** In-app notifications (filled in by the notifications work). */
export const notificationsResolvers: Resolvers = {};
