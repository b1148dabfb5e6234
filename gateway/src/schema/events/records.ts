import type { BaseRecord } from "../../pocketbase/records.ts";

/** PocketBase rows of the events collections (pb_migrations/1732490000_events.js). */
export interface EventRecord extends BaseRecord {
  title: string;
  slug: string;
  summary: string;
  description: string;
  image: string;
  category: string;
  locationName: string;
  locationAddress: string;
  startsAt: string;
  endsAt: string;
  allDay: boolean;
  timezone: string;
  rrule: string;
  exdates: string;
  splitFrom: string;
  visibility: "public" | "members";
  status: "draft" | "published" | "cancelled";
  registrationMode: "none" | "rsvp" | "registration";
  capacity: number;
  waitlistEnabled: boolean;
  registrationOpensAt: string;
  registrationClosesAt: string;
  expand?: { category?: EventCategoryRecord };
}

export interface EventCategoryRecord extends BaseRecord {
  name: string;
  slug: string;
  color: string;
}

export interface EventExceptionRecord extends BaseRecord {
  event: string;
  originalStart: string;
  status: "cancelled" | "moved";
  startsAt: string;
  endsAt: string;
  note: string;
}

export interface RsvpRecord extends BaseRecord {
  event: string;
  occurrenceStart: string;
  user: string;
  name: string;
  email: string;
  response: "yes" | "no" | "maybe";
  guests: number;
  cancelToken?: string;
}

export interface RegistrationRecord extends BaseRecord {
  event: string;
  occurrenceStart: string;
  user: string;
  name: string;
  email: string;
  phone: string;
  attendees: number;
  attendeeNames: string[] | null;
  status: "confirmed" | "waitlisted" | "cancelled";
  confirmationCode: string;
  cancelToken: string;
  waitlistPosition: number;
  partOf: string;
  promotedAt: string;
  promotionMailedAt: string;
  cancelledAt: string;
  expand?: { event?: EventRecord };
}

export interface OccurrenceCountsRecord extends BaseRecord {
  event: string;
  occurrenceStart: string;
  confirmed: number;
  waitlisted: number;
  going: number;
  maybe: number;
}
