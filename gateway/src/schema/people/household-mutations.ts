import type { GatewayContext } from "../../context.ts";
import { conflict, forbidden, notFound, pbCall, serviceUnavailable } from "../../errors.ts";
import type { HouseholdInvitationRecord, HouseholdRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import type { HouseholdInput } from "../__generated__/types.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { householdCan } from "../../access/people.ts";
import { photoUpload, requireEditableHousehold, requireHousehold, writeAs } from "./access.ts";
import { expiresInDays, newInviteToken, sendInvitationMail } from "./invitations.ts";
import { loadersOf } from "./loaders.ts";
import { displayName, viewerPerson } from "./mappers.ts";
import { validateHouseholdInput, validateInvitation } from "./validate-people.ts";

/** Staff (managePeople): a new, empty household. */
export async function createHousehold(ctx: GatewayContext, input: HouseholdInput): Promise<HouseholdRecord> {
  const data = validateHouseholdInput(input, { requireName: true });
  await requireAbility(ctx, "managePeople");
  return writeAs(() =>
    ctx.pb.collection("households").create<HouseholdRecord>({ directoryOptOut: false, ...data }),
  );
}

export async function updateHousehold(
  ctx: GatewayContext,
  id: string,
  input: HouseholdInput,
): Promise<HouseholdRecord> {
  const data = validateHouseholdInput(input, { requireName: false });
  await requireEditableHousehold(ctx, id);
  if (Object.keys(data).length) await writeAs(() => ctx.pb.collection("households").update(id, data));
  loadersOf(ctx).forgetHousehold(id);
  return requireHousehold(ctx, id);
}

export async function setHouseholdPhoto(
  ctx: GatewayContext,
  id: string,
  file: File | null | undefined,
): Promise<HouseholdRecord> {
  const upload = file ? await photoUpload(file) : null;
  await requireEditableHousehold(ctx, id);
  await writeAs(() => ctx.pb.collection("households").update(id, { photo: upload }));
  loadersOf(ctx).forgetHousehold(id);
  return requireHousehold(ctx, id);
}

/**
 * An adult invites someone to join their household: the invitation is stored (with the token's hash
 * only) as the caller, and the link goes to the invitee by mail. When the mail cannot be sent, the
 * invitation is revoked again so no unusable invitation lingers.
 */
export async function inviteToHousehold(
  ctx: GatewayContext,
  householdId: string,
  email: string,
  name: string,
): Promise<HouseholdInvitationRecord> {
  const invitee = validateInvitation(email, name);
  const { viewer, household } = await requireEditableHousehold(ctx, householdId);
  const me = viewerPerson(viewer);
  const { token, tokenHash } = newInviteToken();
  const invitation = await writeAs(() =>
    ctx.pb.collection("household_invitations").create<HouseholdInvitationRecord>({
      household: household.id,
      email: invitee.email,
      name: invitee.name,
      tokenHash,
      invitedBy: me?.id ?? "",
      status: "pending",
      expiresAt: expiresInDays(LIMITS.invitationDays),
    }),
  );
  try {
    await sendInvitationMail(ctx, invitee, {
      token,
      inviterName: me ? displayName(me) : viewer.name || "The church office",
      householdName: household.name,
    });
  } catch (error) {
    console.error("[invitation] sending failed", error);
    await ctx.pb
      .collection("household_invitations")
      .update(invitation.id, { status: "revoked" })
      .catch(() => undefined);
    throw serviceUnavailable("We couldn't send the invitation email. Please try again.");
  }
  loadersOf(ctx).forgetHousehold(household.id);
  return invitation;
}

export async function revokeHouseholdInvitation(
  ctx: GatewayContext,
  id: string,
): Promise<HouseholdInvitationRecord> {
  const viewer = await requireViewer(ctx);
  const page = await pbCall(() =>
    ctx.pb.collection("household_invitations").getList<HouseholdInvitationRecord>(1, 1, {
      filter: ctx.pb.filter("id = {:id}", { id }),
      skipTotal: true,
    }),
  );
  const invitation = page.items[0];
  if (!invitation) throw notFound();
  if (!householdCan(viewer, { id: invitation.household }).edit) throw forbidden();
  if (invitation.status !== "pending")
    throw conflict("This invitation was already accepted or revoked.", "invitation_closed");
  const revoked = await writeAs(() =>
    ctx.pb.collection("household_invitations").update<HouseholdInvitationRecord>(id, { status: "revoked" }),
  );
  loadersOf(ctx).forgetHousehold(invitation.household);
  return revoked;
}
