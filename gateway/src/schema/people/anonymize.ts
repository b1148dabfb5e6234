import type PocketBase from "pocketbase";
import { pbCall } from "../../errors.ts";
import type { SystemClient } from "../../pocketbase/client.ts";
import type { PersonRecord, PrayerRequestPrivateRecord, UserRecord } from "../../pocketbase/records.ts";
import { rowsPointingAt } from "../../pocketbase/records-io.ts";
import { pocketBaseNow } from "../../pocketbase/dates.ts";

/** What an anonymised person is called (neutral in every language the app shows it in). */
export const ANONYMIZED_NAME = { firstName: "Former", lastName: "member" } as const;
/** What a household left without people is renamed to (its old name usually carries a surname). */
export const ANONYMIZED_HOUSEHOLD_NAME = "Former household";

/**
 * Anonymise a person after their deletion request (PRODUCT.md §2): the personal fields and files go,
 * the contact rows and the full birth date are deleted, the person leaves their household and the
 * directory, and the login is deleted. The person record itself stays (archived) so aggregate records
 * keep pointing at something: posts they wrote keep their byline, visit requests keep their link,
 * invitations they sent keep `invitedBy`. Runs as the caller (a people manager); each step can be
 * repeated if a previous attempt stopped half-way.
 *
 * Returns the ids of the deleted logins (the viewer cache forgets them).
 */
export async function anonymize(
  pb: PocketBase,
  person: PersonRecord,
  system: SystemClient,
): Promise<string[]> {
  const household = person.household;
  // Archived first: the users delete rule only lets people managers delete the login of an archived person.
  await pbCall(() =>
    pb.collection("people").update(person.id, {
      ...ANONYMIZED_NAME,
      preferredName: "",
      photo: null,
      household: "",
      householdRole: "",
      directoryOptOut: true,
      recordStatus: "archived",
      deletionRequestedAt: "",
      anonymizedAt: pocketBaseNow(),
    }),
  );
  // The full birth date first: deleting it makes pb_hooks drop the birthday row as well.
  for (const collection of ["person_private", "person_emails", "person_phones", "person_birthdays"]) {
    for (const row of await rowsPointingAt(pb, collection, "person", person.id, "id")) {
      await pbCall(() => pb.collection(collection).delete(row.id));
    }
  }
  await forgetPrayerRequester(system, person.id);
  await forgetGroupMember(system, person.id);
  if (household) await clearEmptyHousehold(pb, household);
  // Duplicates merged into this person still carry their name (and maybe a photo).
  const duplicates = await rowsPointingAt<PersonRecord>(pb, "people", "mergedInto", person.id);
  const deletedLogins: string[] = [];
  for (const duplicate of duplicates) deletedLogins.push(...(await anonymize(pb, duplicate, system)));

  const logins = await rowsPointingAt<UserRecord>(pb, "users", "person", person.id, "id");
  for (const login of logins) await pbCall(() => pb.collection("users").delete(login.id));
  return [...deletedLogins, ...logins.map((login) => login.id)];
}

/**
 * Who asked for prayer (system job, docs/ARCHITECTURE.md: nobody may write those rows): the name and
 * address they gave are blanked, and their requests on the wall no longer show their name. The rows
 * stay, so pastoral staff still see that the request came from this (anonymised) person.
 */
async function forgetPrayerRequester(system: SystemClient, personId: string): Promise<void> {
  const su = await system.get();
  for (const row of await rowsPointingAt<PrayerRequestPrivateRecord>(
    su,
    "prayer_request_private",
    "person",
    personId,
    "id,request",
  )) {
    await pbCall(() =>
      su.collection("prayer_request_private").update(row.id, { submitterName: "", submitterEmail: "" }),
    );
    const request = await pbCall(() =>
      su.collection("prayer_requests").getOne(row.request, { fields: "id,anonymous" }),
    );
    if (!request.anonymous) {
      await pbCall(() =>
        su
          .collection("prayer_requests")
          .update(row.request, { authorName: `${ANONYMIZED_NAME.firstName} ${ANONYMIZED_NAME.lastName}` }),
      );
    }
  }
}

/**
 * Groups (system job: people managers need not manage groups): the person leaves every group and their
 * join requests go; their chat messages stay for the conversation's sake, signed with the anonymised name.
 */
async function forgetGroupMember(system: SystemClient, personId: string): Promise<void> {
  const su = await system.get();
  for (const collection of ["group_members", "group_join_requests"]) {
    for (const row of await rowsPointingAt(su, collection, "person", personId, "id"))
      await pbCall(() => su.collection(collection).delete(row.id));
  }
  for (const row of await rowsPointingAt(su, "group_messages", "author", personId, "id")) {
    await pbCall(() =>
      su
        .collection("group_messages")
        .update(row.id, { authorName: `${ANONYMIZED_NAME.firstName} ${ANONYMIZED_NAME.lastName}` }),
    );
  }
}

/** A household nobody belongs to any more loses its address, photo and name. */
async function clearEmptyHousehold(pb: PocketBase, householdId: string): Promise<void> {
  const left = await pbCall(() =>
    pb.collection("people").getList(1, 1, {
      filter: pb.filter("household = {:h}", { h: householdId }),
      fields: "id",
      skipTotal: true,
    }),
  );
  if (left.items.length) return;
  for (const address of await rowsPointingAt(pb, "addresses", "household", householdId, "id")) {
    await pbCall(() => pb.collection("addresses").delete(address.id));
  }
  await pbCall(() =>
    pb
      .collection("households")
      .update(householdId, { photo: null, name: ANONYMIZED_HOUSEHOLD_NAME, directoryOptOut: true }),
  );
}
