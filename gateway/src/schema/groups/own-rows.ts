import type PocketBase from "pocketbase";
import type { GroupJoinRequestRecord, GroupMemberRecord, PersonRecord } from "../../pocketbase/records.ts";

type PersonWithGroupRows = PersonRecord & {
  expand?: {
    group_members_via_person?: GroupMemberRecord[];
    group_join_requests_via_person?: GroupJoinRequestRecord[];
  };
};

/**
 * A person's own membership and join-request rows, in one call, read with `pb`'s token: their person
 * with both back-relations expanded (the rules let a person read their own rows). Not a filtered list:
 * PocketBase answers an empty filtered list after a random delay when many come from one IP (a church
 * on Sunday), and most people belong to no group (ARCHITECTURE.md, "Per-viewer lookups").
 */
export async function ownGroupRows(
  pb: PocketBase,
  personId: string,
): Promise<{ memberships: GroupMemberRecord[]; requests: GroupJoinRequestRecord[] }> {
  const person = await pb.collection("people").getOne<PersonWithGroupRows>(personId, {
    expand: "group_members_via_person,group_join_requests_via_person",
    fields: "id,expand.group_members_via_person,expand.group_join_requests_via_person",
  });
  return {
    memberships: person.expand?.group_members_via_person ?? [],
    requests: person.expand?.group_join_requests_via_person ?? [],
  };
}
