/** Shapes of the PocketBase records the gateway reads (fields as in pb_migrations). */

export interface BaseRecord {
  id: string;
  collectionId: string;
  collectionName: string;
  created: string;
  updated: string;
}

export type PermissionName =
  | "settings.manage"
  | "roles.manage"
  | "people.view"
  | "people.manage"
  | "content.edit"
  | "content.publish"
  | "sermons.manage"
  | "events.manage"
  | "groups.manage"
  | "serving.manage"
  | "checkin.operate"
  | "giving.view_summary"
  | "giving.view"
  | "giving.manage"
  | "prayer.moderate"
  | "prayer.view_pastoral"
  | "media.manage"
  | "api.manage";

export interface RoleRecord extends BaseRecord {
  name: string;
  description: string;
  permissions: PermissionName[];
}

export type VisibilityValue = "private" | "leaders" | "groups" | "members";

export interface PersonRecord extends BaseRecord {
  firstName: string;
  lastName: string;
  recordStatus: "pending" | "active" | "archived";
  preferredName: string;
  /** Derived by pb_hooks/people.pb.js. */
  ageGroup: "" | "adult" | "youth" | "child";
  household: string;
  householdRole: "" | "head" | "spouse" | "child" | "other";
  membershipStatus: "" | "visitor" | "regular_attender" | "member" | "inactive";
  photo: string;
  directoryOptOut: boolean;
  /** Derived by pb_hooks/people.pb.js. */
  inDirectory: boolean;
  mergedInto: string;
  deletionRequestedAt: string;
  anonymizedAt: string;
}

export interface HouseholdRecord extends BaseRecord {
  name: string;
  photo: string;
  directoryOptOut: boolean;
  /** Derived by pb_hooks/people.pb.js. */
  inDirectory: boolean;
}

export interface PersonPrivateRecord extends BaseRecord {
  person: string;
  birthDate: string;
}

export interface PersonEmailRecord extends BaseRecord {
  person: string;
  email: string;
  isPrimary: boolean;
  visibility: VisibilityValue;
}

export interface PersonPhoneRecord extends BaseRecord {
  person: string;
  number: string;
  kind: "" | "mobile" | "home" | "work" | "other";
  isPrimary: boolean;
  visibility: VisibilityValue;
}

export interface PersonBirthdayRecord extends BaseRecord {
  person: string;
  month: number;
  day: number;
  visibility: VisibilityValue;
}

export interface AddressRecord extends BaseRecord {
  household: string;
  street1: string;
  street2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  visibility: VisibilityValue;
}

export interface HouseholdInvitationRecord extends BaseRecord {
  household: string;
  email: string;
  name: string;
  tokenHash: string;
  invitedBy: string;
  status: "pending" | "accepted" | "revoked";
  expiresAt: string;
}

export interface VisitRequestRecord extends BaseRecord {
  name: string;
  email: string;
  phone: string;
  plannedDate: string;
  partySize: number;
  message: string;
  status: "new" | "contacted" | "closed";
  staffNote: string;
  person: string;
}

export interface UserRecord extends BaseRecord {
  email: string;
  name: string;
  verified: boolean;
  avatar: string;
  person: string;
  roles: string[];
  emailVisibility: boolean;
  locale: "" | "en" | "es";
  status: "" | "active" | "suspended";
  expand?: { roles?: RoleRecord[]; person?: PersonRecord };
}

export interface ServiceTimeValue {
  day: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
  time: string;
  label: string;
}

export interface SettingsRecord extends BaseRecord {
  /** A room over its ratio of children to volunteers: refuse the check-in (the default) or warn. */
  checkinRatioMode: "" | "refuse" | "warn";
  /** ISO 4217: the currency every gift is kept in (issue 29). */
  currency: string;
  /** The legal text at the foot of every giving statement (migration 1732650000). */
  statementText: string;
  churchName: string;
  tagline: string;
  logo: string;
  brandColor: string;
  timezone: string;
  locale: "" | "en" | "es";
  address: string;
  phone: string;
  email: string;
  serviceTimes: ServiceTimeValue[] | null;
  socialLinks: Record<string, string> | null;
  allowSignup: boolean;
  directoryDefaultVisibility: "" | "private" | "leaders" | "groups" | "members";
  prayerRequiresApproval: boolean;
  /** Visitors see public prayer requests (the rules read it; migration 1732430000). */
  prayerPublicWall: boolean;
  prayerExpiryDays: number;
  /** The all-sermons podcast's podcast:guid, set once (migration 1732580000). */
  podcastGuid: string;
}

/** What the Viewer type resolves from: the user with roles and person expanded. */
export interface ViewerModel {
  user: UserRecord;
}

export interface MediaRecord extends BaseRecord {
  file: string;
  kind: "image" | "audio" | "video" | "document";
  filename: string;
  mimeType: string;
  alt: string;
  caption: string;
  width: number;
  height: number;
  durationSeconds: number;
  size: number;
  uploadedBy: string;
}

export interface PageRecord extends BaseRecord {
  title: string;
  slug: string;
  body: string;
  status: "draft" | "published";
  showInNav: boolean;
  navOrder: number;
  seoDescription: string;
  publishedAt: string;
  revision: number;
  updatedBy: string;
  /** @gateway Attached by the gateway: the working copy (null: none), when it has been read. */
  working?: RevisionRecord | null;
}

/** A post's or page's working copy (working) or history entry (pb_migrations/1732470000_revisions.js). */
export interface RevisionRecord extends BaseRecord {
  post: string;
  page: string;
  working: boolean;
  published: boolean;
  title: string;
  body: string;
  fields: Record<string, unknown> | null;
  revision: number;
  editedBy: string;
  /** The API client that saved this version (content.write), instead of a person. */
  editedByClient: string;
  editorName: string;
  expand?: { cover?: MediaRecord };
}

export interface PostRecord extends BaseRecord {
  title: string;
  slug: string;
  summary: string;
  body: string;
  cover: string;
  status: "draft" | "scheduled" | "published" | "archived";
  publishAt: string;
  publishedAt: string;
  /** Last change to the post or its working copy (kept by pb_hooks/revisions.pb.js). */
  editedAt: string;
  pinned: boolean;
  audience: "public" | "members";
  author: string;
  /** The API client that wrote the post (content.write), instead of a person. */
  authorClient: string;
  authorName: string;
  revision: number;
  updatedBy: string;
  /** The API client that saved the post last (staff saving it clear it). */
  updatedByClient: string;
  expand?: { cover?: MediaRecord };
  /** @gateway Attached by the gateway: the working copy (null: none), when it has been read. */
  working?: RevisionRecord | null;
}

export interface PrayerRequestRecord extends BaseRecord {
  body: string;
  visibility: "public" | "members" | "pastoral";
  anonymous: boolean;
  authorName: string;
  status: "pending" | "approved" | "rejected" | "answered" | "archived";
  prayedCount: number;
  flagCount: number;
  answerNote: string;
  rejectReason: string;
  approvedAt: string;
  answeredAt: string;
  expiresAt: string;
  /** A group's request: only the group's active members (and moderators) see it; "" for the wall. */
  group: string;
  /** The group, when the read expanded it and the caller may see it. */
  expand?: { group?: GroupRecord };
}

/** Who asked: readable only by pastoral staff and the requester (pb_migrations/1732300000_prayer.js). */
export interface PrayerRequestPrivateRecord extends BaseRecord {
  request: string;
  user: string;
  person: string;
  submitterName: string;
  submitterEmail: string;
}

/** "I prayed" today: one row per request, day and user (members) or deviceKey (visitors). */
export interface PrayerMarkRecord extends BaseRecord {
  request: string;
  user: string;
  deviceKey: string;
  day: string;
}

export interface PrayerFlagRecord extends BaseRecord {
  request: string;
  user: string;
  reason: string;
}

export interface NotificationRecord extends BaseRecord {
  user: string;
  kind:
    | "signup_approved"
    | "prayer_approved"
    | "prayer_rejected"
    | "prayer_answered"
    | "prayer_prayed"
    | "visit_request"
    | "signup_pending"
    | "prayer_pending"
    | "staff_digest"
    | "webhook_disabled"
    | "group_join_request"
    | "group_request_decided"
    | "serving_request"
    | "serving_declined"
    | "serving_swap"
    | "serving_swapped"
    | "checkin_page"
    | "group_chat";
  title: string;
  body: string;
  link: string;
  groupKey: string;
  count: number;
  readAt: string;
}

/** How a staff member hears of a topic (pb_migrations/1732430100_staff_alerts.js); "" is not chosen yet. */
export type AlertDeliveryValue = "immediate" | "digest" | "off";

export interface StaffAlertPrefsRecord extends BaseRecord {
  user: string;
  visits: "" | AlertDeliveryValue;
  signups: "" | AlertDeliveryValue;
  prayer: "" | AlertDeliveryValue;
  lastDigestAt: string;
}

// --- Sermons (pb_migrations/1732460000_sermons.js) ---

export interface SermonSeriesRecord extends BaseRecord {
  title: string;
  slug: string;
  description: string;
  artwork: string;
  /** This series' podcast:guid, set once (migration 1732580000). */
  podcastGuid: string;
}

export interface SpeakerRecord extends BaseRecord {
  name: string;
  slug: string;
  bio: string;
  photo: string;
  person: string;
}

export interface SermonRecord extends BaseRecord {
  title: string;
  slug: string;
  series: string;
  speakers: string[];
  preachedOn: string;
  scripture: string;
  scriptureOsis: string;
  scriptureBooks: string;
  summary: string;
  notes: string;
  audio: string;
  audioSize: number;
  audioType: string;
  durationSeconds: number;
  videoUrl: string;
  attachments: string[];
  status: "draft" | "published";
  publishedAt: string;
  /** Counts saves: the editor's autosave sends the one it started from (stale_revision otherwise). */
  revision: number;
  updatedBy: string;
  expand?: { series?: SermonSeriesRecord; speakers?: SpeakerRecord[] };
}

// Serving (pb_migrations/1732600000_serving.js): teams, positions, members, plans, needs, requests, availability.

export interface ServingTeamRecord extends BaseRecord {
  name: string;
  description: string;
  reminderDays: number;
  allowSignup: boolean;
  showNames: boolean;
  autoOffer: boolean;
  status: "active" | "archived";
}

export interface ServingPositionRecord extends BaseRecord {
  team: string;
  name: string;
  description: string;
  requiresBackgroundCheck: boolean;
  requiresTraining: boolean;
  sort: number;
  /** The active members who can fill it, comma-separated person ids (kept by the hooks, for the rules). */
  fillerIds: string;
}

export interface ServingMemberRecord extends BaseRecord {
  team: string;
  person: string;
  /** The person's name, copied by the hook. */
  name: string;
  role: "leader" | "member";
  positions: string[];
  status: "active" | "inactive";
  expand?: { person?: PersonRecord };
}

/** A plan's time: a rehearsal, a service or something else, as instants. */
export interface StoredPlanTime {
  kind: "rehearsal" | "service" | "other";
  label: string;
  startsAt: string;
  endsAt: string;
}

export interface ServingPlanRecord extends BaseRecord {
  title: string;
  /** The service's wall-clock day, midnight UTC. */
  date: string;
  times: StoredPlanTime[] | null;
  event: string;
  occurrenceStart: string;
  notes: string;
  status: "draft" | "published" | "done";
}

export interface ServingNeedRecord extends BaseRecord {
  plan: string;
  position: string;
  count: number;
}

export interface ServingRequestRecord extends BaseRecord {
  need: string;
  plan: string;
  position: string;
  person: string;
  /** The person's name, copied by the hook. */
  name: string;
  status: "pending" | "accepted" | "declined" | "cancelled" | "replaced";
  declineReason: string;
  /** Its holder asks for someone to take their place (they stay on until someone does). */
  swapOpen: boolean;
  /** A swap's taker: the request whose place this one took. */
  replaces: string;
  /** Hidden: read only by the system (the mail link). */
  token?: string;
  askedBy: string;
  source: "manual" | "autofill" | "signup" | "swap" | "";
  answeredAt: string;
  /** Hidden: when the reminder mail was queued (system/serving-reminders.ts), read only by the system. */
  remindedAt?: string;
  expand?: { person?: PersonRecord };
}

export interface ServingBlockoutRecord extends BaseRecord {
  person: string;
  startsOn: string;
  endsOn: string;
  repeat: "none" | "weekly" | "monthly" | "";
  until: string;
  reason: string;
}

export interface ServingPreferencesRecord extends BaseRecord {
  person: string;
  maxPerMonth: number;
  preferredTimes: string[] | null;
  household: "none" | "together" | "apart" | "";
}

export interface ServingClearanceRecord extends BaseRecord {
  person: string;
  kind: "background_check" | "training";
  passedOn: string;
  expiresOn: string;
}

/** Child check-in (pb_migrations/1732620000_checkin.js). */
export interface CheckinRoomRecord extends BaseRecord {
  name: string;
  minAgeMonths: number | null;
  maxAgeMonths: number | null;
  capacity: number;
  ratio: number;
  requiresClearance: boolean;
  active: boolean;
  sort: number;
}

export interface CheckinSessionRecord extends BaseRecord {
  name: string;
  startsAt: string;
  opensMinutes: number;
  closesMinutes: number;
  /** Kept by pb_hooks/lib/checkin.js from startsAt and the window. */
  opensAt: string;
  closesAt: string;
  event: string;
  rooms: string[];
}

export interface CheckinRecord extends BaseRecord {
  session: string;
  person: string;
  room: string;
  kind: "child" | "volunteer";
  /** The rest is kept by the hook. */
  name: string;
  household: string;
  code: string;
  day: string;
  checkedInBy: string;
  checkedOutAt: string;
  checkedOutBy: string;
  /** Written by a checkout (the code the parent shows); the hook compares it and always empties it. */
  pickupCode: string;
  overrideReason: string;
  firstTime: boolean;
  /** Admitted past the room's ratio (the church's ratio mode is warn). */
  overRatio: boolean;
  allergies: string;
  medicalNotes: string;
  alerts: string;
  clientKey: string;
  /** The registered station that checked the child in (hook); empty for a signed-in operator. */
  station: string;
  /** When a station made it offline (queued, synced later); empty otherwise. */
  offlineAt: string;
  /** A queued offline check-in's printed code (hook input, always emptied). */
  proposedCode: string;
}

/** A registered check-in station (pb_migrations/1732630000_checkin_stations.js). */
export interface CheckinStationRecord extends BaseRecord {
  name: string;
  mode: "staffed" | "self";
  labelSize: "62mm" | "225in" | "none";
  /** Its location set; empty: every room of the session. */
  rooms: string[];
  /** Its api_clients identity once a device redeemed the pairing code. */
  client: string;
  pairingHash?: string;
  pairingExpiresAt: string;
  pairedBy: string;
  registeredAt: string;
}

/** A pickup code a station holds for a day's offline check-ins (the hook makes the code). */
export interface CheckinCodeHoldRecord extends BaseRecord {
  station: string;
  session: string;
  day: string;
  code: string;
  household: string;
}

/** A fund gifts are given to (pb_migrations/1732640000_giving.js). */
export interface FundRecord extends BaseRecord {
  name: string;
  description: string;
  deductible: boolean;
  visibility: "public" | "hidden" | "closed";
  sort: number;
}

/** A batch of counted gifts; totals, closing and reopening are the hook's (pb_hooks/lib/giving.js). */
export interface DonationBatchRecord extends BaseRecord {
  name: string;
  depositDate: string;
  controlTotalCents: number;
  controlCount: number;
  status: "open" | "closed";
  totalCents: number;
  count: number;
  closedAt: string;
  closedBy: string;
  reopenReason: string;
  reopenedAt: string;
  reopenedBy: string;
  createdBy: string;
}

/** A gift in integer cents, split across funds (the hook checks the splits and sets the unit and currency). */
export interface DonationRecord extends BaseRecord {
  batch: string;
  person: string;
  givingUnit: string;
  individual: boolean;
  date: string;
  amountCents: number;
  currency: string;
  method: "cash" | "cheque" | "card" | "bank_transfer" | "online";
  chequeNumber: string;
  note: string;
  splits: { fund: string; amountCents: number }[];
  source: "manual" | "online" | "import" | "";
  providerRef: string;
  createdBy: string;
}

/** A member's gift repeated by the payment provider (pb_migrations/1732660000_online_giving.js). */
export interface RecurringGiftRecord extends BaseRecord {
  person: string;
  fund: string;
  amountCents: number;
  coveredFeeCents: number;
  currency: string;
  interval: "monthly" | "weekly";
  status: "active" | "paused" | "cancelled";
  providerRef: string;
  lastFailedAt: string;
  failures: number;
}

/** A campaign toward a fund's goal over a period (pb_migrations/1732670000_giving_campaigns.js). */
export interface PledgeCampaignRecord extends BaseRecord {
  name: string;
  description: string;
  fund: string;
  goalCents: number;
  startsOn: string;
  endsOn: string;
  showProgress: boolean;
  status: "active" | "closed";
}

/** What one person promises toward a campaign in all; the giving unit is the hook's (pb_hooks/campaigns.pb.js). */
export interface PledgeRecord extends BaseRecord {
  campaign: string;
  person: string;
  givingUnit: string;
  amountCents: number;
  note: string;
}

/** A payment provider's event already handled (or being handled): the system's alone. */
export interface GivingProviderEventRecord extends BaseRecord {
  eventId: string;
  type: string;
  status: "processing" | "done";
}

/** A gift's amount to one fund on its day, without its donor (the hook's; what giving.view_summary reads). */
export interface DonationSplitRecord extends BaseRecord {
  donation: string;
  fund: string;
  amountCents: number;
  date: string;
}

/** A "statements for all donors" job: its progress and zip, written by the gateway's system account. */
export interface GivingStatementRunRecord extends BaseRecord {
  from: string;
  to: string;
  status: "running" | "done" | "failed";
  unitsTotal: number;
  unitsDone: number;
  /** The zip of one PDF per giving unit (protected). */
  statements: string;
  heartbeatAt: string;
  error: string;
  createdBy: string;
}

/** A room's numbers in a session, kept by pb_hooks/lib/checkin.js#recount. */
export interface CheckinCountsRecord extends BaseRecord {
  session: string;
  room: string;
  children: number;
  volunteers: number;
  childrenTotal: number;
  firstTime: number;
}

export interface PersonCareRecord extends BaseRecord {
  person: string;
  allergies: string;
  medicalNotes: string;
}

export interface PickupAuthorizationRecord extends BaseRecord {
  household: string;
  name: string;
  relationship: string;
  status: "trusted" | "not_authorized";
  notes: string;
}

/**
 * Each collection's record type. `npm run records:check` (scripts/check-records.ts, in CI) compares
 * them with the collections pb_migrations produce: every field present with its type, nothing more
 * except `expand` and properties the gateway attaches (tagged `@gateway`).
 */
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
  /** The group that runs the event (groups issue); empty until groups exist. */
  ownerGroup: string;
  /** users id of the last staff member who saved it. */
  updatedBy: string;
  /** Its iCalendar UID, set once (migration 1732580000); empty until a feed first lists it. */
  icalUid: string;
  /** The registration form's own questions (migration 1732590000); null when it has none. */
  questions: RegistrationQuestion[] | null;
  expand?: { category?: EventCategoryRecord };
}

/** One question of an event's registration form (events.questions). */
export interface RegistrationQuestion {
  /** Stable across edits, so answers keep their question. */
  id: string;
  label: string;
  kind: "text" | "choice" | "yes_no";
  /** The choices of a "choice" question; empty otherwise. */
  options: string[];
  required: boolean;
}

/** A party's answer to one question (registrations.answers), with the wording it was asked in. */
export interface RegistrationAnswer {
  questionId: string;
  question: string;
  value: string;
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
  /** people id of a signed-in member's person ("" for a visitor). */
  person: string;
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
  /** Answers to the event's questions (migration 1732590000); null without any. */
  answers: RegistrationAnswer[] | null;
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
  /** Decided by the events hook (pb_hooks/lib/events.js#seatsLeft); 0 for an event without a capacity. */
  seatsLeft: number;
  waitlisted: number;
  going: number;
  maybe: number;
  /**
   * One more on every recount: PocketBase's realtime changes can arrive out of order, and the live
   * seats keep the highest (pb_migrations/1732585000_occurrence_counts_version.js).
   */
  version: number;
}

/** What an API token may read beyond the public site (pb_migrations/1732496000_api_clients.js). */
export type ApiScope =
  | "content.members"
  | "prayer.members"
  | "people.directory"
  | "content.write"
  | "serving.read"
  | "checkin.counts"
  | "giving.summary"
  /** A registered check-in station's identity (never offered as a token scope). */
  | "checkin.station";

/** An API token's machine identity (an auth record: PocketBase's rules read its scopes). */
export interface ApiClientRecord extends BaseRecord {
  email: string;
  emailVisibility: boolean;
  verified: boolean;
  name: string;
  scopes: ApiScope[];
  /** SHA-256 (hex) of the token's secret; hidden from every API. */
  secretHash: string;
  createdBy: string;
  expiresAt: string;
  revokedAt: string;
  /** The usage row: unique per client, so PocketBase expands it as one record, not a list. */
  expand?: { createdBy?: UserRecord; api_client_usage_via_client?: ApiClientUsageRecord };
}

/** When and from where a client was last used (its own row: see 1732496000_api_clients.js). */
export interface ApiClientUsageRecord extends BaseRecord {
  client: string;
  lastUsedAt: string;
  lastUsedIp: string;
}

export type WebhookEventType =
  | "post.published"
  | "post.updated"
  | "page.published"
  | "sermon.published"
  | "event.published"
  | "prayer.approved"
  | "prayer.answered"
  | "person.created"
  | "visit.created"
  | "serving.accepted"
  | "serving.declined"
  | "checkin.checked_in"
  | "checkin.checked_out"
  | "gift.received"
  | "gift.recurring_failed";

/** A webhook subscription (pb_migrations/1732497000_webhooks.js). */
export interface WebhookRecord extends BaseRecord {
  url: string;
  description: string;
  events: WebhookEventType[];
  /** "whsec_…"; hidden from every API (the system reads it to sign). */
  secret: string;
  allowPrivateHost: boolean;
  enabled: boolean;
  disabledReason: string;
  consecutiveFailures: number;
  createdBy: string;
  expand?: { createdBy?: UserRecord };
}

/** One event for one webhook: the durable queue and the delivery log. */
export interface WebhookDeliveryRecord extends BaseRecord {
  webhook: string;
  type: WebhookEventType;
  payload: Record<string, unknown> | null;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  nextAttemptAt: string;
  lastAttemptAt: string;
  responseStatus: number;
  error: string;
  /** Who holds it now (pb_hooks/queues.pb.js) and until when; empty when nobody does. */
  claim: string;
  claimedUntil: string;
}

/**
 * Which gateway replica runs a system job now (pb_migrations/1732690000_job_leases.js; taken and renewed
 * by pb_hooks/leases.pb.js, system/job-leases.ts).
 */
export interface JobLeaseRecord extends BaseRecord {
  job: string;
  holder: string;
  expiresAt: string;
  /** Runs started under a lease, numbered by the transaction that granted each. */
  runs: number;
  lastRunAt: string;
}

export type MailOutboxKind =
  | "event.registered"
  | "event.rsvp"
  | "event.moved"
  | "event.cancelled"
  | "event.cancelled_by_staff"
  | "event.promoted"
  | "serving.reminder";

/** One mail the app sends, queued before it is sent (pb_migrations/1732575500_durable_queues.js). */
export interface MailOutboxRecord extends BaseRecord {
  kind: MailOutboxKind;
  /** The composed mail ({message, churchName}), or null for one written when it is sent (a promotion). */
  message: unknown;
  registration: string;
  dedupeKey: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  nextAttemptAt: string;
  claim: string;
  claimedUntil: string;
  sentAt: string;
  error: string;
}

/** PocketBase rows of the groups collections (pb_migrations/1732500000_groups.js). */
export type GroupTypeValue = "small_group" | "class" | "ministry" | "team";
export type GroupWeekdayValue =
  "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

export interface GroupRecord extends BaseRecord {
  name: string;
  slug: string;
  type: GroupTypeValue;
  description: string;
  photo: string;
  schedule: string;
  meetingDay: GroupWeekdayValue | "";
  area: string;
  locationDisplay: "hidden" | "approximate" | "exact";
  visibility: "public" | "members" | "hidden";
  joinPolicy: "open" | "request" | "closed";
  /** 0: no limit. */
  capacity: number;
  rosterVisibility: "leaders" | "members";
  chatEnabled: boolean;
  status: "active" | "archived";
  /** Active members, kept by pb_hooks/groups.pb.js. */
  memberCount: number;
  /** Active leaders' display names, kept by pb_hooks/groups.pb.js. */
  leaderNames: string[] | null;
}

export interface GroupMemberRecord extends BaseRecord {
  group: string;
  person: string;
  role: "leader" | "member";
  status: "active" | "inactive";
  lastReadAt: string;
  chatNotifiedAt: string;
  expand?: { person?: PersonRecord; group?: GroupRecord };
}

export interface GroupJoinRequestRecord extends BaseRecord {
  group: string;
  person: string;
  message: string;
  status: "pending" | "approved" | "declined" | "cancelled";
  decidedBy: string;
  decidedAt: string;
  expand?: { person?: PersonRecord; group?: GroupRecord };
}

export interface GroupMessageRecord extends BaseRecord {
  group: string;
  author: string;
  authorName: string;
  body: string;
  clientKey: string;
  editedAt: string;
}

export interface GroupAddressRecord extends BaseRecord {
  group: string;
  address: string;
}

/** Who may see a person through groups (space-separated person ids): for the people rules only (no API access). */
export interface GroupAccessRecord extends BaseRecord {
  person: string;
  rosterViewers: string;
  groupViewers: string;
  leaderViewers: string;
  requestViewers: string;
  memberGroups: string;
}

export interface Collections {
  roles: RoleRecord;
  users: UserRecord;
  settings: SettingsRecord;
  people: PersonRecord;
  households: HouseholdRecord;
  person_private: PersonPrivateRecord;
  person_emails: PersonEmailRecord;
  person_phones: PersonPhoneRecord;
  person_birthdays: PersonBirthdayRecord;
  addresses: AddressRecord;
  household_invitations: HouseholdInvitationRecord;
  visit_requests: VisitRequestRecord;
  media: MediaRecord;
  pages: PageRecord;
  posts: PostRecord;
  revisions: RevisionRecord;
  prayer_requests: PrayerRequestRecord;
  prayer_request_private: PrayerRequestPrivateRecord;
  prayer_marks: PrayerMarkRecord;
  prayer_flags: PrayerFlagRecord;
  staff_alert_prefs: StaffAlertPrefsRecord;
  notifications: NotificationRecord;
  sermon_series: SermonSeriesRecord;
  speakers: SpeakerRecord;
  sermons: SermonRecord;
  event_categories: EventCategoryRecord;
  events: EventRecord;
  event_exceptions: EventExceptionRecord;
  rsvps: RsvpRecord;
  registrations: RegistrationRecord;
  occurrence_counts: OccurrenceCountsRecord;
  api_clients: ApiClientRecord;
  api_client_usage: ApiClientUsageRecord;
  webhooks: WebhookRecord;
  webhook_deliveries: WebhookDeliveryRecord;
  mail_outbox: MailOutboxRecord;
  job_leases: JobLeaseRecord;
  groups: GroupRecord;
  group_members: GroupMemberRecord;
  group_join_requests: GroupJoinRequestRecord;
  group_messages: GroupMessageRecord;
  group_addresses: GroupAddressRecord;
  group_access: GroupAccessRecord;
  serving_teams: ServingTeamRecord;
  serving_positions: ServingPositionRecord;
  serving_members: ServingMemberRecord;
  serving_plans: ServingPlanRecord;
  serving_needs: ServingNeedRecord;
  serving_requests: ServingRequestRecord;
  serving_blockouts: ServingBlockoutRecord;
  serving_preferences: ServingPreferencesRecord;
  serving_clearances: ServingClearanceRecord;
  checkin_rooms: CheckinRoomRecord;
  checkin_sessions: CheckinSessionRecord;
  checkins: CheckinRecord;
  checkin_counts: CheckinCountsRecord;
  checkin_stations: CheckinStationRecord;
  checkin_code_holds: CheckinCodeHoldRecord;
  funds: FundRecord;
  donation_batches: DonationBatchRecord;
  donations: DonationRecord;
  donation_splits: DonationSplitRecord;
  giving_statement_runs: GivingStatementRunRecord;
  recurring_gifts: RecurringGiftRecord;
  giving_provider_events: GivingProviderEventRecord;
  pledge_campaigns: PledgeCampaignRecord;
  pledges: PledgeRecord;
  person_care: PersonCareRecord;
  pickup_authorizations: PickupAuthorizationRecord;
}
