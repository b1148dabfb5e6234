import type { EventRecord, RegistrationRecord, RsvpRecord, UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Events' policy (pb_migrations/1732490000_events.js). Feature-wide: manageEvents in abilities.ts
 * (events, their dates and exceptions, categories, attendee lists). Who may see an event is the
 * rules' alone (published, and public or for active members; drafts for manageEvents): every record
 * below was read with the caller's token, so the caller may see it.
 */

/** What the caller may do with one event (`Event.can`). */
export interface EventCan {
  edit: boolean;
}

/** What the caller may do with one occurrence (`Occurrence.can`). */
export interface OccurrenceCan {
  edit: boolean;
  rsvp: boolean;
  register: boolean;
}

/** What the caller may do with one registration (`Registration.can`). */
export interface RegistrationCan {
  cancel: boolean;
  move: boolean;
}

/** What the caller may do with one RSVP (`Rsvp.can`). */
export interface RsvpCan {
  change: boolean;
}

/** Change, publish, cancel and delete the event, its dates and exceptions; its attendee lists. */
export const eventCan = (user: UserRecord | null): EventCan => ({ edit: can(user, "manageEvents") });

/**
 * edit: cancel, move or restore this date (manageEvents). rsvp / register: answer or register for it
 * (visitors too, on a public event) while `open` — the events feature's registration window for this
 * date: the event published and taking RSVPs or registrations, the date not cancelled, not begun, inside
 * the opening and closing times. A full date without a waitlist is refused at the write. An API token
 * reads events (its scopes may open members-only ones) but never answers for anyone.
 */
export function occurrenceCan(
  user: UserRecord | null,
  event: Pick<EventRecord, "registrationMode">,
  open: boolean,
  options: { apiClient?: boolean } = {},
): OccurrenceCan {
  const answers = open && !options.apiClient;
  return {
    edit: can(user, "manageEvents"),
    rsvp: answers && event.registrationMode === "rsvp",
    register: answers && event.registrationMode === "registration",
  };
}

/**
 * Whoever may read a registration may cancel it (the rules give both to its owner, manageEvents and
 * the holder of its mail link's token); moving it to another date is manageEvents' work.
 */
export const registrationCan = (
  user: UserRecord | null,
  registration: Pick<RegistrationRecord, "status">,
): RegistrationCan => ({
  cancel: registration.status !== "cancelled",
  move: registration.status !== "cancelled" && can(user, "manageEvents"),
});

/** Whoever may read an RSVP may change or withdraw it (its owner, manageEvents, its token's holder). */
export const rsvpCan = (): RsvpCan => ({ change: true });

/** Event staff read every registration and RSVP; everyone else only their own (the rules). */
export const readsEveryAttendee = (user: UserRecord | null) => can(user, "manageEvents");

/** An RSVP's email: its owner, event staff, and a visitor holding its mail link's token (their own). */
export const seesRsvpEmail = (
  user: UserRecord | null,
  rsvp: Pick<RsvpRecord, "user"> & { readWithToken?: boolean },
) => readsEveryAttendee(user) || (!!user && user.id === rsvp.user) || rsvp.readWithToken === true;
