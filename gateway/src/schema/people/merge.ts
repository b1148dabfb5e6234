import type PocketBase from "pocketbase";
import { pbCall } from "../../errors.ts";
import type { SystemClient } from "../../pocketbase/client.ts";
import type {
  CheckinRecord,
  GroupJoinRequestRecord,
  GroupMemberRecord,
  ServingMemberRecord,
  ServingRequestRecord,
  HouseholdRecord,
  PersonBirthdayRecord,
  PersonEmailRecord,
  PersonPhoneRecord,
  PersonPrivateRecord,
  PersonRecord,
  PledgeRecord,
} from "../../pocketbase/records.ts";
import { downloadFile, findById, rowsPointingAt } from "../../pocketbase/records-io.ts";

/**
 * Merging duplicates (and linking a sign-up to an existing person): every record that points at the
 * merged person moves to the kept one, so nothing is lost. All writes run as the caller (people
 * managers); PocketBase's rules allow them. There is no transaction across PocketBase requests, so each
 * step is written to be safe to run again: a merge interrupted half-way can simply be repeated.
 */

type Mover = (pb: PocketBase, keep: PersonRecord, merge: PersonRecord, system: SystemClient) => Promise<void>;

/** Point every `collection.field` at the kept person (plain relations with nothing to reconcile). */
function repoint(collection: string, field: string): Mover {
  return async (pb, keep, merge) => {
    for (const row of await rowsPointingAt(pb, collection, field, merge.id, "id")) {
      await pbCall(() => pb.collection(collection).update(row.id, { [field]: keep.id }));
    }
  };
}

/**
 * Contact rows (emails, phones): rows the kept person already has (same address or number) are
 * deleted from the merged person instead of doubled; the rest move over. The kept person's primary
 * row stays primary (one primary per person is a unique index).
 */
function moveContactRows<T extends PersonEmailRecord | PersonPhoneRecord>(
  collection: string,
  sameValue: (a: T, b: T) => boolean,
): Mover {
  return async (pb, keep, merge) => {
    const kept = await rowsPointingAt<T>(pb, collection, "person", keep.id);
    const moving = await rowsPointingAt<T>(pb, collection, "person", merge.id);
    let keepHasPrimary = kept.some((row) => row.isPrimary);
    for (const row of moving) {
      if (kept.some((existing) => sameValue(existing, row))) {
        await pbCall(() => pb.collection(collection).delete(row.id));
        continue;
      }
      const isPrimary = row.isPrimary && !keepHasPrimary;
      keepHasPrimary ||= isPrimary;
      await pbCall(() => pb.collection(collection).update(row.id, { person: keep.id, isPrimary }));
      kept.push({ ...row, person: keep.id, isPrimary });
    }
  };
}

/**
 * The full birth date: the kept person's wins when they have one; otherwise the merged person's moves
 * over, and with it their birthday row (month, day and the visibility they chose). The birthday row
 * is moved first so that the pb_hooks sync (run when the birth date changes hands) updates it instead
 * of creating one with the default visibility.
 */
const movePrivate: Mover = async (pb, keep, merge) => {
  const [mergePrivate] = await rowsPointingAt<PersonPrivateRecord>(pb, "person_private", "person", merge.id);
  if (!mergePrivate) return;
  const [keepPrivate] = await rowsPointingAt<PersonPrivateRecord>(pb, "person_private", "person", keep.id);
  if (keepPrivate?.birthDate || !mergePrivate.birthDate) {
    // Deleting it lets the hook drop the merged person's birthday row too.
    await pbCall(() => pb.collection("person_private").delete(mergePrivate.id));
    return;
  }
  const [keepBirthday] = await rowsPointingAt<PersonBirthdayRecord>(
    pb,
    "person_birthdays",
    "person",
    keep.id,
  );
  const [mergeBirthday] = await rowsPointingAt<PersonBirthdayRecord>(
    pb,
    "person_birthdays",
    "person",
    merge.id,
  );
  if (mergeBirthday && !keepBirthday)
    await pbCall(() => pb.collection("person_birthdays").update(mergeBirthday.id, { person: keep.id }));
  if (keepPrivate) {
    await pbCall(() =>
      pb.collection("person_private").update(keepPrivate.id, { birthDate: mergePrivate.birthDate }),
    );
    await pbCall(() => pb.collection("person_private").delete(mergePrivate.id));
  } else {
    await pbCall(() => pb.collection("person_private").update(mergePrivate.id, { person: keep.id }));
  }
};

/** Birthday rows follow the birth date (above); whatever the merged person still has is stale. */
const dropLeftoverBirthdays: Mover = async (pb, _keep, merge) => {
  for (const row of await rowsPointingAt(pb, "person_birthdays", "person", merge.id, "id")) {
    await pbCall(() => pb.collection("person_birthdays").delete(row.id));
  }
};

/**
 * Who asked for a prayer request (`prayer_request_private`) moves with the person, as a system job
 * (docs/ARCHITECTURE.md): nobody may write those rows (a requester must not claim requests), and a
 * people manager without pastoral rights may not even read them.
 */
const movePrayerRequesters: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  for (const row of await rowsPointingAt(su, "prayer_request_private", "person", merge.id, "id")) {
    await pbCall(() => su.collection("prayer_request_private").update(row.id, { person: keep.id }));
  }
};

/**
 * Every relation to `people` in the schema, as "collection.field", with how a merge moves it.
 * gateway/test/people-staff.int.test.ts fails when a collection gains a relation to people that is
 * not listed here, so a new feature cannot silently leave records behind on the merged duplicate.
 * Order matters: the birth date before the leftover birthday rows.
 */
/**
 * A speaker linked to the merged person follows to the kept one. Speakers are public, so the caller
 * finds them; the change is the merge's bookkeeping, done by the system (people managers need not
 * manage sermons).
 */
const moveSpeakers: Mover = async (pb, keep, merge, system) => {
  const rows = await rowsPointingAt(pb, "speakers", "person", merge.id, "id");
  if (!rows.length) return;
  const su = await system.get();
  for (const row of rows) await pbCall(() => su.collection("speakers").update(row.id, { person: keep.id }));
};

/**
 * A member's RSVPs follow to the kept person. RSVPs are their owners' (and events staff's) to
 * change, so the system moves them, as the merge's bookkeeping; it finds them itself, since people
 * managers need not see who answered which event.
 */
const moveRsvps: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const rows = await rowsPointingAt(su, "rsvps", "person", merge.id, "id");
  for (const row of rows) await pbCall(() => su.collection("rsvps").update(row.id, { person: keep.id }));
};

/**
 * Group memberships follow to the kept person, as the merge's bookkeeping done by the system (people
 * managers need not manage groups). A group both records belong to keeps one row: the kept person's,
 * made a leader if the duplicate led it.
 */
const moveMemberships: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const kept = await rowsPointingAt<GroupMemberRecord>(
    su,
    "group_members",
    "person",
    keep.id,
    "id,group,role,status",
  );
  for (const row of await rowsPointingAt<GroupMemberRecord>(
    su,
    "group_members",
    "person",
    merge.id,
    "id,group,role,status",
  )) {
    const same = kept.find((k) => k.group === row.group);
    if (!same) {
      await pbCall(() => su.collection("group_members").update(row.id, { person: keep.id }));
      continue;
    }
    await pbCall(() => su.collection("group_members").delete(row.id));
    if (row.role === "leader" && same.role !== "leader")
      await pbCall(() => su.collection("group_members").update(same.id, { role: "leader" }));
  }
};

/** Join requests follow too; a pending one the kept person also has for that group is withdrawn (one pending per person and group). */
const moveJoinRequests: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const keptPending = (
    await rowsPointingAt<GroupJoinRequestRecord>(
      su,
      "group_join_requests",
      "person",
      keep.id,
      "id,group,status",
    )
  ).filter((r) => r.status === "pending");
  for (const row of await rowsPointingAt<GroupJoinRequestRecord>(
    su,
    "group_join_requests",
    "person",
    merge.id,
    "id,group,status",
  )) {
    const clash = row.status === "pending" && keptPending.some((k) => k.group === row.group);
    await pbCall(() =>
      su
        .collection("group_join_requests")
        .update(row.id, clash ? { person: keep.id, status: "cancelled" } : { person: keep.id }),
    );
  }
};

/** Rows only the system may rewrite (a decision's leader, a chat message's author). */
function repointAsSystem(collection: string, field: string): Mover {
  return async (_pb, keep, merge, system) => {
    const su = await system.get();
    for (const row of await rowsPointingAt(su, collection, field, merge.id, "id")) {
      await pbCall(() => su.collection(collection).update(row.id, { [field]: keep.id }));
    }
  };
}

/**
 * Serving rosters follow the kept person; on a team both are on, one row stays, with the positions of
 * both and the leader role if either led it.
 */
const moveServingMemberships: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const fields = "id,team,role,positions";
  const kept = await rowsPointingAt<ServingMemberRecord>(su, "serving_members", "person", keep.id, fields);
  for (const row of await rowsPointingAt<ServingMemberRecord>(
    su,
    "serving_members",
    "person",
    merge.id,
    fields,
  )) {
    const same = kept.find((k) => k.team === row.team);
    if (!same) {
      await pbCall(() => su.collection("serving_members").update(row.id, { person: keep.id }));
      continue;
    }
    await pbCall(() => su.collection("serving_members").delete(row.id));
    await pbCall(() =>
      su.collection("serving_members").update(same.id, {
        positions: [...new Set([...(same.positions ?? []), ...(row.positions ?? [])])],
        ...(row.role === "leader" && { role: "leader" }),
      }),
    );
  }
};

/** Requests to serve follow too; where both were asked for the same need, the kept person's stands. */
const moveServingRequests: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const kept = await rowsPointingAt<ServingRequestRecord>(
    su,
    "serving_requests",
    "person",
    keep.id,
    "id,need",
  );
  for (const row of await rowsPointingAt<ServingRequestRecord>(
    su,
    "serving_requests",
    "person",
    merge.id,
    "id,need",
  )) {
    if (kept.some((k) => k.need === row.need))
      await pbCall(() => su.collection("serving_requests").delete(row.id));
    else await pbCall(() => su.collection("serving_requests").update(row.id, { person: keep.id }));
  }
};

/** One preferences row per person: the kept person's, else the duplicate's moves over. */
/** One row per person (serving preferences, care notes): the kept person's stays; the merged one's moves only when they have none. */
const moveOnePerPerson =
  (collection: "serving_preferences" | "person_care"): Mover =>
  async (_pb, keep, merge, system) => {
    const su = await system.get();
    const kept = await rowsPointingAt(su, collection, "person", keep.id, "id");
    for (const row of await rowsPointingAt(su, collection, "person", merge.id, "id")) {
      if (kept.length) await pbCall(() => su.collection(collection).delete(row.id));
      else await pbCall(() => su.collection(collection).update(row.id, { person: keep.id }));
    }
  };

/** Attendance moves to the kept person; where both were checked in to one session, the kept one's stays. */
const moveCheckins: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const kept = await rowsPointingAt<CheckinRecord>(su, "checkins", "person", keep.id, "id,session");
  const sessions = new Set(kept.map((row) => row.session));
  for (const row of await rowsPointingAt<CheckinRecord>(su, "checkins", "person", merge.id, "id,session")) {
    if (sessions.has(row.session)) await pbCall(() => su.collection("checkins").delete(row.id));
    else await pbCall(() => su.collection("checkins").update(row.id, { person: keep.id }));
  }
};

/**
 * Pledges move to the kept person (the hook gives them the kept person's giving unit). One pledge per
 * person and campaign: where both had pledged to one campaign — the same person recorded twice — the
 * kept pledge stays, at the larger of the two amounts (a promise is neither lost nor counted twice).
 */
const movePledges: Mover = async (_pb, keep, merge, system) => {
  const su = await system.get();
  const kept = await rowsPointingAt<PledgeRecord>(
    su,
    "pledges",
    "person",
    keep.id,
    "id,campaign,amountCents",
  );
  for (const row of await rowsPointingAt<PledgeRecord>(
    su,
    "pledges",
    "person",
    merge.id,
    "id,campaign,amountCents",
  )) {
    const same = kept.find((k) => k.campaign === row.campaign);
    if (!same) {
      await pbCall(() => su.collection("pledges").update(row.id, { person: keep.id }));
      continue;
    }
    await pbCall(() => su.collection("pledges").delete(row.id));
    if (row.amountCents > same.amountCents)
      await pbCall(() => su.collection("pledges").update(same.id, { amountCents: row.amountCents }));
  }
};

/** Derived rows: PocketBase's hooks rewrite both people's group_access as memberships and requests move. */
const derivedByHooks: Mover = async () => {};

export const PERSON_RELATIONS = {
  "person_emails.person": moveContactRows<PersonEmailRecord>(
    "person_emails",
    (a, b) => a.email.toLowerCase() === b.email.toLowerCase(),
  ),
  "person_phones.person": moveContactRows<PersonPhoneRecord>(
    "person_phones",
    (a, b) => a.number === b.number,
  ),
  "person_private.person": movePrivate,
  "person_birthdays.person": dropLeftoverBirthdays,
  "users.person": repoint("users", "person"),
  "people.mergedInto": repoint("people", "mergedInto"),
  "household_invitations.invitedBy": repoint("household_invitations", "invitedBy"),
  "visit_requests.person": repoint("visit_requests", "person"),
  "prayer_request_private.person": movePrayerRequesters,
  "speakers.person": moveSpeakers,
  "rsvps.person": moveRsvps,
  "group_members.person": moveMemberships,
  "group_join_requests.person": moveJoinRequests,
  "group_join_requests.decidedBy": repointAsSystem("group_join_requests", "decidedBy"),
  "group_messages.author": repointAsSystem("group_messages", "author"),
  "group_access.person": derivedByHooks,
  "serving_members.person": moveServingMemberships,
  "serving_requests.person": moveServingRequests,
  "serving_requests.askedBy": repointAsSystem("serving_requests", "askedBy"),
  "serving_blockouts.person": repointAsSystem("serving_blockouts", "person"),
  "serving_preferences.person": moveOnePerPerson("serving_preferences"),
  "serving_clearances.person": repointAsSystem("serving_clearances", "person"),
  "checkins.person": moveCheckins,
  "person_care.person": moveOnePerPerson("person_care"),
  // Gifts follow the kept person (their giving unit stays the one of the day they gave), closed batches too.
  "donations.person": repointAsSystem("donations", "person"),
  // A recurring gift is the provider's subscription: it keeps running, for the kept person.
  "recurring_gifts.person": repointAsSystem("recurring_gifts", "person"),
  "pledges.person": movePledges,
} satisfies Record<string, Mover>;

/** The kept person's blank fields, filled from the merged one. */
async function fillBlanks(
  pb: PocketBase,
  keep: PersonRecord,
  merge: PersonRecord,
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  if (!keep.preferredName && merge.preferredName) data.preferredName = merge.preferredName;
  if (!keep.membershipStatus && merge.membershipStatus) data.membershipStatus = merge.membershipStatus;
  if (
    !keep.household &&
    merge.household &&
    (await findById<HouseholdRecord>(pb, "households", merge.household))
  ) {
    data.household = merge.household;
    data.householdRole = keep.householdRole || merge.householdRole;
  }
  // Privacy first: if either record opted out of the directory, the merged person stays out.
  if (merge.directoryOptOut && !keep.directoryOptOut) data.directoryOptOut = true;
  if (!keep.photo && merge.photo) {
    const photo = await downloadFile(pb, merge, merge.photo);
    if (photo) data.photo = new File([photo.bytes], merge.photo, { type: photo.type });
  }
  return data;
}

/**
 * Merge `merge` into `keep`: move every related record, fill the kept person's blank fields, then
 * archive the duplicate with `mergedInto` pointing at the kept person (its household link and photo
 * go, so it no longer shows among the household's people).
 */
export async function mergeInto(
  pb: PocketBase,
  keep: PersonRecord,
  merge: PersonRecord,
  system: SystemClient,
): Promise<void> {
  for (const move of Object.values(PERSON_RELATIONS)) await move(pb, keep, merge, system);
  const blanks = await fillBlanks(pb, keep, merge);
  if (Object.keys(blanks).length) await pbCall(() => pb.collection("people").update(keep.id, blanks));
  await pbCall(() =>
    pb.collection("people").update(merge.id, {
      recordStatus: "archived",
      mergedInto: keep.id,
      household: "",
      householdRole: "",
      ...(blanks.photo ? { photo: null } : {}),
    }),
  );
}
