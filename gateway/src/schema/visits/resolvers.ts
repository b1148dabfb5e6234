import type { Resolvers } from "../__generated__/types.ts";

/** Plan-a-visit requests (filled in by the people work). */
export const visitsResolvers: Resolvers = {};
