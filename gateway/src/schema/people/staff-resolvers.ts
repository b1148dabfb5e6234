import type { Resolvers } from "../__generated__/types.ts";

/** Sign-up approval, merge, archive, anonymise and deletion requests (filled in by the people work). */
export const peopleStaffResolvers: Resolvers = {};
