/**
 * The PocketBase value behind each GraphQL enum value. GraphQL enum values cannot hold dots or be
 * lowercase by convention; PocketBase stores "draft", "regular_attender" and dotted permission names. Codegen
 * (codegen.ts, `enumValues`) types the resolvers with these values and the schema maps them at the
 * edge, so resolvers read and return PocketBase values untouched: no case conversions by hand.
 * Enums with no stored counterpart are listed in UNMAPPED_ENUMS instead, each with its reason; a test
 * (enum-values.test.ts) fails when a schema enum is in neither.
 */
import { PERMISSION_VALUES } from "../access/abilities.ts";

/** The usual rule: the GraphQL name, lowercased ("REGULAR_ATTENDER" → "regular_attender"). */
const lowercase = <const K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, name.toLowerCase()])) as { readonly [N in K]: Lowercase<N> };

export const ENUM_VALUES = {
  Permission: PERMISSION_VALUES,
  UserStatus: lowercase("ACTIVE", "SUSPENDED"),
  ApiScope: {
    CONTENT_MEMBERS: "content.members",
    PRAYER_MEMBERS: "prayer.members",
    PEOPLE_DIRECTORY: "people.directory",
    CONTENT_WRITE: "content.write",
    SERVING_READ: "serving.read",
  },
  WebhookEvent: {
    POST_PUBLISHED: "post.published",
    POST_UPDATED: "post.updated",
    PAGE_PUBLISHED: "page.published",
    SERMON_PUBLISHED: "sermon.published",
    EVENT_PUBLISHED: "event.published",
    PRAYER_APPROVED: "prayer.approved",
    PRAYER_ANSWERED: "prayer.answered",
    PERSON_CREATED: "person.created",
    VISIT_CREATED: "visit.created",
    SERVING_ACCEPTED: "serving.accepted",
    SERVING_DECLINED: "serving.declined",
  },
  WebhookDeliveryStatus: lowercase("PENDING", "SUCCEEDED", "FAILED"),
  RecordStatus: lowercase("PENDING", "ACTIVE", "ARCHIVED"),
  PageStatus: lowercase("DRAFT", "PUBLISHED"),
  PostStatus: lowercase("DRAFT", "SCHEDULED", "PUBLISHED", "ARCHIVED"),
  Audience: lowercase("PUBLIC", "MEMBERS"),
  MediaKind: lowercase("IMAGE", "AUDIO", "VIDEO", "DOCUMENT"),
  NotificationKind: lowercase(
    "SIGNUP_APPROVED",
    "PRAYER_APPROVED",
    "PRAYER_REJECTED",
    "PRAYER_ANSWERED",
    "PRAYER_PRAYED",
    "VISIT_REQUEST",
    "SIGNUP_PENDING",
    "PRAYER_PENDING",
    "STAFF_DIGEST",
    "WEBHOOK_DISABLED",
    "GROUP_JOIN_REQUEST",
    "GROUP_REQUEST_DECIDED",
    "GROUP_CHAT",
    "SERVING_REQUEST",
    "SERVING_DECLINED",
  ),
  Visibility: lowercase("PRIVATE", "LEADERS", "GROUPS", "MEMBERS"),
  ContactVisibility: lowercase("PRIVATE", "LEADERS", "GROUPS", "MEMBERS"),
  AgeGroup: lowercase("ADULT", "YOUTH", "CHILD"),
  HouseholdRole: lowercase("HEAD", "SPOUSE", "CHILD", "OTHER"),
  MembershipStatus: lowercase("VISITOR", "REGULAR_ATTENDER", "MEMBER", "INACTIVE"),
  PhoneKind: lowercase("MOBILE", "HOME", "WORK", "OTHER"),
  InvitationStatus: lowercase("PENDING", "ACCEPTED", "REVOKED"),
  VisitStatus: lowercase("NEW", "CONTACTED", "CLOSED"),
  PrayerVisibility: lowercase("PUBLIC", "MEMBERS", "PASTORAL"),
  PrayerStatus: lowercase("PENDING", "APPROVED", "REJECTED", "ANSWERED", "ARCHIVED"),
  SermonStatus: lowercase("DRAFT", "PUBLISHED"),
  EventStatus: lowercase("DRAFT", "PUBLISHED", "CANCELLED"),
  EventVisibility: lowercase("PUBLIC", "MEMBERS"),
  RegistrationMode: lowercase("NONE", "RSVP", "REGISTRATION"),
  QuestionKind: lowercase("TEXT", "CHOICE", "YES_NO"),
  RsvpResponse: lowercase("YES", "NO", "MAYBE"),
  RegistrationStatus: lowercase("CONFIRMED", "WAITLISTED", "CANCELLED"),
  Weekday: lowercase("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"),
  GroupType: lowercase("SMALL_GROUP", "CLASS", "MINISTRY", "TEAM"),
  GroupVisibility: lowercase("PUBLIC", "MEMBERS", "HIDDEN"),
  JoinPolicy: lowercase("OPEN", "REQUEST", "CLOSED"),
  LocationDisplay: lowercase("HIDDEN", "APPROXIMATE", "EXACT"),
  RosterVisibility: lowercase("LEADERS", "MEMBERS"),
  GroupStatus: lowercase("ACTIVE", "ARCHIVED"),
  GroupRole: lowercase("LEADER", "MEMBER"),
  ServingTeamStatus: lowercase("ACTIVE", "ARCHIVED"),
  ServingRole: lowercase("LEADER", "MEMBER"),
  ServingPlanStatus: lowercase("DRAFT", "PUBLISHED", "DONE"),
  ServingRequestStatus: lowercase("PENDING", "ACCEPTED", "DECLINED", "CANCELLED"),
  ServingTimeKind: lowercase("REHEARSAL", "SERVICE", "OTHER"),
  ServingRepeat: lowercase("NONE", "WEEKLY", "MONTHLY"),
  ServingHousehold: lowercase("NONE", "TOGETHER", "APART"),
  JoinRequestStatus: lowercase("PENDING", "APPROVED", "DECLINED", "CANCELLED"),
  StaffAlertTopic: { VISIT_REQUESTS: "visits", SIGNUPS: "signups", PRAYER_MODERATION: "prayer" },
  AlertDelivery: { IMMEDIATE: "immediate", DAILY_DIGEST: "digest", OFF: "off" },
} as const;

/** The schema's enums that ENUM_VALUES does not map, and why: none of them is a stored PocketBase value. */
export const UNMAPPED_ENUMS = {
  Locale: "stored as its own names (users.locale, settings.locale: en, es): nothing to map",
  PostOrder: "a sort order asked for, never stored",
  ImageSize: "a thumbnail size asked for, never stored",
  PhotoSize: "a thumbnail size asked for, never stored",
  LogoSize: "a thumbnail size asked for, never stored",
  ContentKind: "which kind of record uses a media item, worked out by the gateway",
  MatchReason: "why two people may be the same, worked out by the gateway",
  PrayerWallFilter: "a filter asked for, never stored",
  WallEventKind: "what happened to a request, in a live event",
  GroupMessageEventKind: "what happened to a chat message, in a live event",
  JoinOutcome: "the result of asking to join a group, worked out by the gateway",
  ApiTokenStatus: "active, expired or revoked, worked out from an API client's dates",
  VideoProvider: "read from a sermon's video URL",
  OccurrenceStatus: "worked out per occurrence from the series and its exceptions (events/occurrences.ts)",
} as const;
