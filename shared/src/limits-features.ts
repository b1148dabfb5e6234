/*
 * Limits of the staff-heavy features, beside shared/src/limits.ts: every public page loads that module,
 * so what only check-in and giving read lives here (the first-load budget, QUALITY.md F1). The same rule:
 * the gateway validates with them, the web's fields are bounded by them, the migrations mirror them.
 */

/**
 * Child check-in (issue 28): rooms, sessions and their window, stations, care notes, the pickup list, a
 * checkout's reason. In a module of its own, so the public pages' chunks (which read LIMITS) never carry it.
 */
export const CHECKIN_LIMITS = {
  checkinRoomNameMax: 60,
  checkinAgeMonthsMax: 216,
  checkinRoomCapacityMax: 500,
  checkinRoomRatioMax: 50,
  checkinSessionNameMax: 100,
  checkinWindowMinutesMax: 240,
  checkinSessionRoomsMax: 50,
  /** Who one station check-in covers, and a first-time family's children. */
  checkinPeopleMax: 12,
  checkinFamilyChildrenMax: 8,
  checkinSearchMin: 2,
  checkinSearchMax: 50,
  checkinCodeLength: 4,
  checkinClientKeyMax: 40,
  checkinStationNameMax: 60,
  /** A station's pairing code as people type it (8 characters, with a dash or spaces). */
  checkinPairingInputMax: 12,
  allergiesMax: 500,
  medicalNotesMax: 1000,
  pickupAlertsMax: 1000,
  pickupNameMax: 100,
  pickupRelationshipMax: 50,
  pickupNotesMax: 255,
  checkoutReasonMin: 3,
  checkoutReasonMax: 200,
} as const;

/** Giving (issue 29): funds, batches and gifts (amounts in cents). In a module of its own, as CHECKIN_LIMITS. */
export const GIVING_LIMITS = {
  fundNameMax: 80,
  fundDescriptionMax: 500,
  batchNameMax: 80,
  /** A gift or a batch's control total: at most 100 million in the currency, in cents. */
  donationCentsMax: 10_000_000_000,
  batchCountMax: 10_000,
  donationSplitsMax: 10,
  chequeNumberMax: 30,
  donationNoteMax: 500,
  reopenReasonMin: 3,
  reopenReasonMax: 200,
  /** The legal text at the foot of every giving statement (settings.statementText). */
  statementTextMax: 2000,
  /** One online gift (or one charge of a recurring gift): the payment provider's own most, 999,999.99. */
  onlineGiftCentsMax: 99_999_999,
  /** A visitor's address for the provider's receipt. */
  giftEmailMax: 254,
  /** Reports: the longest period a report or an export covers (as the summary), and an export's rows. */
  reportDaysMax: 366 * 5,
  exportRowsMax: 50_000,
  /** Lapsed donors: how far back to look (months), the last of which are the quiet ones. */
  lapsedMonthsMax: 60,
  /** An import of gifts from CSV: its rows, and its text (under the gateway's 1 MB JSON request). */
  importRowsMax: 5_000,
  importCsvCharsMax: 900_000,
  /** Pledge campaigns: a campaign's name and description, a pledge's note (goals and pledges: donationCentsMax). */
  campaignNameMax: 80,
  campaignDescriptionMax: 500,
  pledgeNoteMax: 500,
} as const;
