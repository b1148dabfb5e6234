import type { CheckinCardFragment, CheckinFamilyCardFragment } from "./checkin.generated.ts";

/*
 * A station through a dropped connection (issue 28): it keeps checking families in from what it already
 * loaded — the families it keeps for offline (checkinRegulars) and the pickup codes it holds for the day
 * (holdCheckinCodes) — queues each check-in on the device, and sends the queue when the network is back.
 * The gateway's hook keeps the code the label printed unless the household already has one that day, and
 * the station says which labels to replace. Kept in localStorage, so a reload loses nothing queued.
 */

type Family = CheckinFamilyCardFragment;

/** One family's check-in made offline, as it will be sent. */
export interface QueuedCheckin {
  /** The station's own key for it (also each person's clientKey prefix: a retry lands once). */
  key: string;
  sessionId: string;
  familyName: string;
  proposedCode: string;
  offlineAt: string;
  people: { personId: string; roomId: string; name: string; clientKey: string }[];
}

const QUEUE_KEY = "flock.checkin.queue";
const HOLDS_KEY = "flock.checkin.holds";

function read<T>(key: string, fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return value ? (JSON.parse(value) as T) : fallback;
  } catch {
    return fallback;
  }
}

export const queued = (): QueuedCheckin[] => read<QueuedCheckin[]>(QUEUE_KEY, []);
export const saveQueue = (queue: QueuedCheckin[]) => localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));

/** The codes held for a session, with those already printed offline taken out. */
export function heldCodes(sessionId: string): string[] {
  const held = read<Record<string, string[]>>(HOLDS_KEY, {})[sessionId] ?? [];
  const used = new Set(queued().map((entry) => entry.proposedCode));
  return held.filter((code) => !used.has(code));
}
/** Keep the codes held for a session, beside those of the day's other sessions (a station may switch between them). */
export function saveHeldCodes(sessionId: string, codes: string[]) {
  const all = read<Record<string, string[]>>(HOLDS_KEY, {});
  localStorage.setItem(HOLDS_KEY, JSON.stringify({ ...all, [sessionId]: codes }));
}

/** Families matching a station's search, from its offline list: phone digits, a name, or a household QR code. */
export function searchOffline(families: readonly Family[], search: string): Family[] {
  const q = search.trim().toLowerCase();
  if (!q) return [];
  const qr = /^flock:household:([a-z0-9]{15})$/.exec(q);
  if (qr) return families.filter((family) => family.householdId === qr[1]);
  const digits = q.replace(/\D/g, "");
  if (digits.length === 4 && /^[\d\s()+-]+$/.test(q))
    return families.filter((family) => family.phoneEndings.includes(digits));
  return families
    .filter(
      (family) =>
        family.name.toLowerCase().includes(q) || family.members.some((m) => m.name.toLowerCase().includes(q)),
    )
    .slice(0, 10);
}

/**
 * The code for a family's offline check-in: the one its children already have today (checked in earlier
 * that day, or queued here), else a held code; null when the station holds none left.
 */
export function offlineCodeFor(family: Family, sessionId: string): string | null {
  const existing = family.todayCode ?? family.members.find((m) => m.checkin?.code)?.checkin?.code;
  if (existing) return existing;
  const queuedForFamily = queued().find(
    (entry) =>
      entry.sessionId === sessionId &&
      entry.people.some((p) => family.members.some((m) => m.personId === p.personId)),
  );
  if (queuedForFamily) return queuedForFamily.proposedCode;
  return heldCodes(sessionId)[0] ?? null;
}

/** What the labels of an offline check-in show (the room's names from the session). */
export function offlineCheckins(
  entry: QueuedCheckin,
  family: Family,
  roomName: (id: string) => string,
): CheckinCardFragment[] {
  return entry.people.map((person) => {
    const member = family.members.find((m) => m.personId === person.personId);
    return {
      __typename: "Checkin",
      id: `offline-${person.clientKey}`,
      personId: person.personId,
      name: person.name,
      kind: "CHILD",
      code: entry.proposedCode,
      checkedInAt: entry.offlineAt,
      offlineAt: entry.offlineAt,
      checkedOutAt: null,
      firstTime: false,
      allergies: member?.allergies ?? "",
      medicalNotes: "",
      notAuthorized: "",
      room: { __typename: "CheckinRoom", id: person.roomId, name: roomName(person.roomId) },
      can: { __typename: "CheckinCan", checkOut: false, page: false },
    };
  });
}
