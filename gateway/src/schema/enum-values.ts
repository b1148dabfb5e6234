/**
 * The PocketBase value behind each GraphQL enum value. GraphQL enum values cannot hold dots or be
 * lowercase by convention; PocketBase stores "draft", "regular_attender" and dotted permission names. Codegen
 * (codegen.ts, `enumValues`) types the resolvers with these values and the schema maps them at the
 * edge, so resolvers read and return PocketBase values untouched: no case conversions by hand.
 * Enums with no stored counterpart (sizes, orders, event kinds) are not here.
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
  Weekday: lowercase("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"),
  GroupType: lowercase("SMALL_GROUP", "CLASS", "MINISTRY", "TEAM"),
  GroupVisibility: lowercase("PUBLIC", "MEMBERS", "HIDDEN"),
  JoinPolicy: lowercase("OPEN", "REQUEST", "CLOSED"),
  LocationDisplay: lowercase("HIDDEN", "APPROXIMATE", "EXACT"),
  RosterVisibility: lowercase("LEADERS", "MEMBERS"),
  GroupStatus: lowercase("ACTIVE", "ARCHIVED"),
  GroupRole: lowercase("LEADER", "MEMBER"),
  JoinRequestStatus: lowercase("PENDING", "APPROVED", "DECLINED", "CANCELLED"),
  StaffAlertTopic: { VISIT_REQUESTS: "visits", SIGNUPS: "signups", PRAYER_MODERATION: "prayer" },
  AlertDelivery: { IMMEDIATE: "immediate", DAILY_DIGEST: "digest", OFF: "off" },
} as const;
