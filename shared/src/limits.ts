/**
 * Validation limits (PRODUCT.md §6, §9), the one place they are written down. Used by gateway
 * validation and by the web forms; pb_migrations repeats them in the schema and a test
 * (gateway/test/schema-limits.int.test.ts) checks that the live schema agrees.
 */
export const LIMITS = {
  nameMax: 200,
  personNameMax: 50,
  /** An API token's name ("Lobby screen"). */
  apiTokenNameMax: 80,
  /** A webhook's URL and its description. */
  webhookUrlMax: 2000,
  webhookDescriptionMax: 200,
  passwordMinChars: 10,
  /** bcrypt only reads the first 72 bytes; PocketBase refuses more than 71. */
  passwordMaxBytes: 71,
  emailMax: 254,
  taglineMax: 200,
  addressMax: 500,
  phoneMax: 40,
  serviceTimesMax: 20,
  serviceTimeLabelMax: 80,
  imageMaxBytes: 10 * 1024 * 1024,
  imageMimeTypes: ["image/jpeg", "image/png", "image/webp", "image/gif"],
  pageSizeMax: 100,
  /** Markdown bodies (PocketBase text fields cap at 5,000 unless max is set). */
  markdownMax: 200_000,
  summaryMax: 500,
  seoDescriptionMax: 300,
  altMax: 500,
  captionMax: 1000,
  documentMaxBytes: 25 * 1024 * 1024,
  documentMimeTypes: ["application/pdf"],
  searchMax: 100,
  householdNameMax: 100,
  streetMax: 100,
  cityMax: 60,
  regionMax: 60,
  postalCodeMax: 20,
  visitMessageMax: 2000,
  visitPartySizeMax: 50,
  staffNoteMax: 2000,
  contactMessageMin: 1,
  contactMessageMax: 2000,
  /** Household invitations stay valid this long. */
  invitationDays: 14,
  /** The invitee's name on a household invitation. */
  invitationNameMax: 100,
  /** peopleCsv: at most this many rows in one export. */
  peopleCsvMaxRows: 10_000,
  /** Prayer requests (PRODUCT.md §6): the body, a moderator's reject reason, the praise report, a flag's reason. */
  prayerBodyMin: 10,
  prayerBodyMax: 2000,
  prayerRejectReasonMax: 500,
  prayerAnswerNoteMax: 2000,
  prayerFlagReasonMax: 500,
  /** Sermons (PRODUCT.md §6): audio up to 300 MB, PDF attachments, scripture and bios. */
  audioMaxBytes: 300 * 1024 * 1024,
  audioMimeTypes: [
    "audio/mpeg",
    "audio/mp4",
    "audio/x-m4a",
    "audio/aac",
    "audio/ogg",
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
  ],
  scriptureMax: 500,
  seriesDescriptionMax: 5000,
  speakerBioMax: 5000,
  sermonAttachmentsMax: 10,
  videoUrlMax: 500,
  /** Groups (PRODUCT.md §4, §6): name, schedule and location texts, capacity, join message, chat. */
  groupNameMax: 100,
  groupScheduleMax: 200,
  groupAreaMax: 100,
  groupLocationMax: 500,
  groupCapacityMax: 10_000,
  groupJoinMessageMax: 1000,
  chatMessageMin: 1,
  chatMessageMax: 4000,
  /** The client's idempotency key of a chat message (a UUID). */
  chatClientKeyMax: 64,
  groupEmailSubjectMax: 200,
  groupEmailBodyMax: 10_000,
  /** Serving (issue 27): team, position and plan texts, places per need, a decline's reason, availability. */
  servingTeamNameMax: 100,
  servingTeamDescriptionMax: 2000,
  servingReminderDaysMax: 14,
  servingPositionNameMax: 50,
  servingPositionDescriptionMax: 500,
  servingPositionsPerMemberMax: 50,
  servingPlanTitleMax: 100,
  servingPlanNotesMax: 20_000,
  servingNeedCountMax: 50,
  servingDeclineReasonMax: 250,
  servingBlockoutReasonMax: 100,
  servingMaxPerMonthMax: 31,
  /** A plan's times (rehearsal, services): how many, and a time's label; a volunteer's preferred times. */
  servingPlanTimesMax: 6,
  servingPlanTimeLabelMax: 50,
  servingPreferredTimesMax: 6,
  /** Events (PRODUCT.md §5): seats per occurrence (0 = no limit), an RSVP's guests, a registration's party. */
  eventCapacityMax: 100_000,
  rsvpGuestsMax: 20,
  partySizeMax: 10,
  /** A registration form's own questions (events.questions): how many, their wording, choices, answers. */
  registrationQuestionsMax: 10,
  questionLabelMax: 200,
  questionChoicesMax: 20,
  questionChoiceMax: 100,
  answerMax: 500,
  /** The note on a cancelled or moved date ("Snow", "Moved to Saturday evening"). */
  occurrenceNoteMax: 500,
  /** An IANA time zone's name (events, the church's settings). */
  timeZoneMax: 64,
  /** An address's country: its ISO 3166-1 alpha-2 code. */
  countryCodeLength: 2,
} as const;

export const THROTTLE = {
  /** Sign-in: failures per account and per IP inside the window (PRODUCT.md §9) for untrusted clients… */
  signInWindowMs: 15 * 60 * 1000,
  signInFailuresPerAccount: 5,
  signInFailuresPerIp: 30,
  /** …and per trusted device (a browser that signed in to the account before), which is exempt from both. */
  signInFailuresPerDevice: 5,
  /** Anonymous forms (sign-up, password reset, verification mail): per IP per hour. */
  anonymousFormWindowMs: 60 * 60 * 1000,
  anonymousFormsPerIp: 20,
  /** Check-in stations registered with a pairing code, per IP per hour (a church sets its tablets up on one network). */
  stationRegistrationsPerIp: 60,
  /** Visitor forms (plan a visit, later prayer and RSVP): PRODUCT.md §9, 5 per IP per hour. */
  visitorFormsPerIp: 5,
  /**
   * Visitors' "I prayed" (no account): a visitor who drops cookies gets a new device each time, so
   * counted marks are also limited per IP per hour: per request, and across requests.
   */
  visitorPrayersPerIpPerRequest: 3,
  visitorPrayersPerIp: 30,
  /** Directory "Contact" relay: messages per sender per hour. */
  contactPerSenderPerHour: 5,
} as const;

export const GRAPHQL_LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 2000,
  maxFirst: 100,
} as const;

export const SESSION = {
  cookieName: "flock_session",
  /** PRODUCT.md §9: 7-day sliding lifetime. */
  maxAgeSeconds: 7 * 24 * 60 * 60,
  /** Re-issue the token when it is older than this, so an active session never expires. */
  refreshAfterSeconds: 60 * 60,
} as const;
