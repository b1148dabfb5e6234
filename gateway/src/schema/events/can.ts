import { eventCan, occurrenceCan, registrationCan, rsvpCan } from "../../access/events.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { signUpWindow } from "./sign-ups.ts";

/**
 * What the caller may do with events, their dates, registrations and RSVPs: the `can` fields, from the
 * events policy (gateway/src/access/events.ts). Merged into the schema's resolvers beside the events
 * module's own (schema/resolvers.ts).
 */
export const eventsCanResolvers: Resolvers = {
  Event: {
    can: async (_, __, ctx) => eventCan(await ctx.viewer()),
  },
  Occurrence: {
    // Whether the date is open is the events hook's decision (the same batched read as registrationOpen).
    can: async (o, _, ctx) =>
      occurrenceCan(await ctx.viewer(), o.event, (await signUpWindow(ctx, o)).open, {
        apiClient: !!ctx.apiClient,
      }),
  },
  Registration: {
    can: async (r, _, ctx) => registrationCan(await ctx.viewer(), r),
  },
  Rsvp: {
    can: () => rsvpCan(),
  },
};
