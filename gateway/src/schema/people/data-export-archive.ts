import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { strToU8, zipSync, type Zippable } from "fflate";
import type {
  AddressRecord,
  HouseholdInvitationRecord,
  HouseholdRecord,
  MediaRecord,
  PersonRecord,
  PostRecord,
  UserRecord,
  VisitRequestRecord,
} from "../../pocketbase/records.ts";
import { pbCall } from "../../errors.ts";
import { downloadFile, findById, rowsPointingAt } from "../../pocketbase/records-io.ts";
import { fromPocketBaseDate, isPocketBaseDate } from "../../pocketbase/dates.ts";

/**
 * "My data" (PRODUCT.md §2, /me/data): everything the app holds about the signed-in user, gathered
 * with the user's own token, so the export holds exactly what PocketBase's rules let them read: their
 * account, person, contact rows, birth date, household (with the address and the people of it they
 * may see), invitations, visit requests linked to them, media they uploaded and posts they wrote —
 * plus their files (person photo, household photo, avatar).
 */

const ABOUT = [
  "This archive holds the personal data the church's app keeps about you, as of exportedAt.",
  "data.json: account (your login), person (your profile), private (your full birth date), emails and phones",
  "(each with who may see it), birthday (month and day as shown to others), household (with its address, its",
  "people you can see and its invitations), invitationsSent, visitRequests linked to you, mediaUploaded",
  "(file details only) and postsAuthored. Dates are ISO-8601 in UTC.",
  "files/: your photo, your household's photo and your account avatar, when there are any.",
  'To correct something, edit your profile in the app; to have your data deleted, use "Request deletion" on the My data page.',
];

/** Fields that describe storage, not the person; and secrets never exported. */
const INTERNAL = new Set([
  "collectionId",
  "collectionName",
  "expand",
  "tokenHash",
  "tokenKey",
  "password",
  "emailVisibility",
]);

/** A PocketBase date as ISO-8601 ("" stays ""). */
const iso = (value: string | undefined) =>
  isPocketBaseDate(value) ? fromPocketBaseDate(value) : (value ?? "");

/** A record as plain data: internal fields dropped, PocketBase dates as ISO-8601, empty values kept. */
function clean<T extends object>(
  record: T | null | undefined,
  omit: string[] = [],
): Record<string, unknown> | null {
  if (!record) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (INTERNAL.has(key) || omit.includes(key)) continue;
    out[key] = typeof value === "string" ? iso(value) : value;
  }
  return out;
}

const listWhere = <T>(pb: PocketBase, collection: string, filter: string, sort = "-created") =>
  pbCall(() => pb.collection(collection).getFullList<T>({ filter, sort, batch: 200 }));

export interface ExportArchive {
  bytes: Uint8Array;
  /** For tests and logs: the paths inside the zip. */
  paths: string[];
}

/** Builds the zip (data.json and files/) for `user`, reading everything through `pb` (the user's client). */
export async function buildMyDataArchive(
  pb: PocketBase,
  user: UserRecord,
  now = new Date(),
): Promise<ExportArchive> {
  const person = await findById<PersonRecord>(pb, "people", user.person);
  const household = person ? await findById<HouseholdRecord>(pb, "households", person.household) : null;
  const byUser = (field: string) => pb.filter(`${field} = {:id}`, { id: user.id });

  const [
    privateRows,
    emails,
    phones,
    birthdays,
    address,
    householdPeople,
    householdInvitations,
    sentInvitations,
    visits,
    media,
    posts,
  ] = await Promise.all([
    person ? rowsPointingAt(pb, "person_private", "person", person.id) : [],
    person
      ? listWhere(pb, "person_emails", pb.filter("person = {:id}", { id: person.id }), "-isPrimary,created")
      : [],
    person
      ? listWhere(pb, "person_phones", pb.filter("person = {:id}", { id: person.id }), "-isPrimary,created")
      : [],
    person ? rowsPointingAt(pb, "person_birthdays", "person", person.id) : [],
    household
      ? rowsPointingAt<AddressRecord>(pb, "addresses", "household", household.id).then(
          (rows) => rows[0] ?? null,
        )
      : null,
    household
      ? listWhere<PersonRecord>(
          pb,
          "people",
          pb.filter("household = {:id}", { id: household.id }),
          "lastName,firstName",
        )
      : [],
    household
      ? listWhere<HouseholdInvitationRecord>(
          pb,
          "household_invitations",
          pb.filter("household = {:id}", { id: household.id }),
        )
      : [],
    person
      ? listWhere<HouseholdInvitationRecord>(
          pb,
          "household_invitations",
          pb.filter("invitedBy = {:id}", { id: person.id }),
        )
      : [],
    // Readable by staff only: for everyone else PocketBase's rules leave these lists empty.
    person
      ? listWhere<VisitRequestRecord>(pb, "visit_requests", pb.filter("person = {:id}", { id: person.id }))
      : [],
    listWhere<MediaRecord>(pb, "media", byUser("uploadedBy")),
    listWhere<PostRecord>(pb, "posts", byUser("author")),
  ]);

  const files: Zippable = {};
  const fileEntries: Record<string, string> = {};
  const addFile = async (label: string, record: RecordModel | null, filename: string | undefined) => {
    if (!record || !filename) return;
    const file = await downloadFile(pb, record, filename);
    if (!file) return;
    const path = `files/${label}-${filename}`;
    // Images are compressed already: store them as they are.
    files[path] = [file.bytes, { level: 0 }];
    fileEntries[label] = path;
  };
  await addFile("person-photo", person, person?.photo);
  await addFile("household-photo", household, household?.photo);
  await addFile("avatar", user, user.avatar);

  const data = {
    exportedAt: now.toISOString(),
    about: ABOUT.join(" "),
    account: {
      id: user.id,
      email: user.email,
      name: user.name,
      locale: user.locale || null,
      verified: user.verified,
      created: iso(user.created),
      roles: (user.expand?.roles ?? []).map((r) => r.name),
    },
    person: clean(person, ["photo"]),
    private: clean(privateRows[0], ["person"]),
    emails: emails.map((row) => clean(row as object, ["person"])),
    phones: phones.map((row) => clean(row as object, ["person"])),
    birthday: clean(birthdays[0], ["person"]),
    household: household
      ? {
          ...clean(household, ["photo"]),
          address: clean(address, ["household"]),
          people: householdPeople.map((p) => ({
            id: p.id,
            firstName: p.firstName,
            lastName: p.lastName,
            preferredName: p.preferredName,
            householdRole: p.householdRole,
          })),
          invitations: householdInvitations.map((row) => clean(row)),
        }
      : null,
    invitationsSent: sentInvitations.map((row) => clean(row)),
    visitRequests: visits.map((row) => clean(row)),
    mediaUploaded: media.map((m) => ({
      id: m.id,
      filename: m.filename,
      kind: m.kind,
      mimeType: m.mimeType,
      size: m.size,
      alt: m.alt,
      caption: m.caption,
      created: iso(m.created),
    })),
    postsAuthored: posts.map((p) => ({
      id: p.id,
      title: p.title,
      slug: p.slug,
      status: p.status,
      publishedAt: iso(p.publishedAt) || null,
    })),
    files: fileEntries,
  };
  const entries: Zippable = { "data.json": strToU8(`${JSON.stringify(data, null, 2)}\n`), ...files };
  return { bytes: zipSync(entries, { level: 6 }), paths: Object.keys(entries) };
}
