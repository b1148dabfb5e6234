import type { Resolvers } from "../__generated__/types.ts";

/** Profiles, households, contact rows and the directory (filled in by the people work). */
export const peopleResolvers: Resolvers = {};
