import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import type { ProviderEvent, RecurringFacts } from "../../payments/provider.ts";
import type {
  DonationRecord,
  GivingProviderEventRecord,
  RecurringGiftRecord,
} from "../../pocketbase/records.ts";
import { parsePocketBaseDate, pocketBaseDay, todayIn, toPocketBaseDate } from "../../pocketbase/dates.ts";

/*
 * What the payment provider tells the church, written down once (issue 29). The provider's webhook has no
 * caller, so the system writes; PocketBase's giving hook still decides what a gift may be (its splits, its
 * fund, its giving unit and currency), as for a gift a treasurer keys in.
 *
 * Exactly once: the provider retries an event until it hears 2xx, and may deliver one twice at the same
 * moment. Each event id is claimed first in giving_provider_events (a unique index: one claim wins); a
 * redelivery of an event already handled writes nothing and answers "duplicate"; one arriving while another
 * delivery is still handling it answers "busy" (the provider tries again later). A claim whose handling
 * failed is dropped, so the provider's retry handles the event afresh; one left by a process that died is
 * taken over after STALE_CLAIM_MS. The writes themselves are idempotent too: a gift is one per payment
 * (donations.providerRef is unique) and a recurring gift one per subscription (recurring_gifts.providerRef).
 *
 * The donor: the person who was signed in when they started the checkout (the gateway put their id in the
 * checkout's metadata), else nobody. A visitor's gift is recorded anonymous, never matched by the email
 * they typed: anyone may type anyone's address, and a gift on someone else's statement is a wrong record.
 * A treasurer who knows the visitor may name them on the gift afterwards.
 */

export type Outcome = "recorded" | "duplicate" | "busy";

/** A claim older than this is a delivery whose process died: the next delivery takes it over. */
export const STALE_CLAIM_MS = 2 * 60_000;

/** PocketBase refused a value a unique index already holds. */
function isTaken(error: unknown): boolean {
  if (!(error instanceof ClientResponseError) || error.status !== 400) return false;
  const data = (error.response?.data ?? {}) as Record<string, { code?: string }>;
  return Object.values(data).some((field) => field?.code === "validation_not_unique");
}

const isNotFound = (error: unknown) => error instanceof ClientResponseError && error.status === 404;

async function findBy<T>(system: PocketBase, collection: string, field: string, value: string) {
  const page = await system.collection(collection).getList<T & { id: string }>(1, 1, {
    filter: system.filter(`${field} = {:value}`, { value }),
    skipTotal: true,
  });
  return page.items[0] ?? null;
}

/** Take the event for this delivery: the claim's id when it is ours to handle. */
async function claim(
  system: PocketBase,
  event: ProviderEvent,
): Promise<{ id: string } | "duplicate" | "busy"> {
  const events = system.collection("giving_provider_events");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await events.create<GivingProviderEventRecord>({
        eventId: event.eventId,
        type: event.type,
        status: "processing",
      });
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
    const held = await findBy<GivingProviderEventRecord>(
      system,
      "giving_provider_events",
      "eventId",
      event.eventId,
    );
    if (!held) continue; // dropped meanwhile by a delivery that failed: claim it again
    if (held.status === "done") return "duplicate";
    if (Date.now() - parsePocketBaseDate(held.updated).getTime() < STALE_CLAIM_MS) return "busy";
    // Left by a process that died mid-way: remove it and claim again (of two deliveries doing so, one wins).
    await events.delete(held.id).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }
  return "busy";
}

/** The person an event names, if they still exist (a person removed or merged since: nobody). */
async function existingPerson(system: PocketBase, personId: string | null): Promise<string> {
  if (!personId) return "";
  try {
    await system.collection("people").getOne(personId, { fields: "id" });
    return personId;
  } catch (error) {
    if (isNotFound(error)) return "";
    throw error;
  }
}

/** The recurring gift of a subscription, written the first time any of its events arrives (they come in any order). */
async function ensureRecurring(
  system: PocketBase,
  facts: RecurringFacts,
): Promise<RecurringGiftRecord | null> {
  const found = await findBy<RecurringGiftRecord>(system, "recurring_gifts", "providerRef", facts.ref);
  if (found) return found;
  const person = await existingPerson(system, facts.personId);
  if (!person) return null;
  try {
    return await system.collection("recurring_gifts").create<RecurringGiftRecord>({
      person,
      fund: facts.fundId,
      amountCents: facts.amountCents,
      coveredFeeCents: facts.coveredFeeCents,
      currency: facts.currency,
      interval: facts.interval,
      status: "active",
      providerRef: facts.ref,
      failures: 0,
    });
  } catch (error) {
    if (!isTaken(error)) throw error;
    return findBy<RecurringGiftRecord>(system, "recurring_gifts", "providerRef", facts.ref);
  }
}

/** A payment received: one gift, into its fund, on the church's day it was paid. */
async function recordGift(
  system: PocketBase,
  event: Extract<ProviderEvent, { kind: "gift_paid" }>,
  timeZone: string,
): Promise<void> {
  if (event.recurring) {
    const recurring = await ensureRecurring(system, event.recurring);
    // A payment that went through ends a run of failures.
    if (recurring && recurring.failures > 0)
      await system.collection("recurring_gifts").update(recurring.id, { failures: 0 });
  }
  if (await findBy<DonationRecord>(system, "donations", "providerRef", event.paymentRef)) return;
  const person = await existingPerson(system, event.personId);
  try {
    await system.collection("donations").create({
      person,
      individual: false,
      date: pocketBaseDay(todayIn(timeZone, event.paidAt)),
      amountCents: event.amountCents,
      method: "online",
      source: "online",
      providerRef: event.paymentRef,
      splits: [{ fund: event.fundId, amountCents: event.amountCents }],
    });
  } catch (error) {
    // Recorded by a delivery of another event about the same payment: one gift per payment.
    if (!isTaken(error)) throw error;
  }
}

/** The effect of one event (claimed by this delivery). */
async function apply(system: PocketBase, event: ProviderEvent, timeZone: string): Promise<void> {
  switch (event.kind) {
    case "gift_paid":
      return recordGift(system, event, timeZone);
    case "recurring_started":
      await ensureRecurring(system, event.recurring);
      return;
    case "recurring_failed": {
      const recurring = await ensureRecurring(system, event.recurring);
      if (!recurring) return;
      // A new lastFailedAt is the webhook event gift.recurring_failed (pb_hooks/lib/webhooks.js).
      await system.collection("recurring_gifts").update(recurring.id, {
        lastFailedAt: toPocketBaseDate(event.failedAt),
        // Counted in the database (PocketBase's "+" modifier): two failures told at once both count.
        "failures+": 1,
      });
      return;
    }
    case "recurring_changed": {
      const recurring = await findBy<RecurringGiftRecord>(
        system,
        "recurring_gifts",
        "providerRef",
        event.ref,
      );
      // Cancelled is final: a late "updated" event never brings a cancelled gift back.
      if (!recurring || recurring.status === event.status || recurring.status === "cancelled") return;
      await system.collection("recurring_gifts").update(recurring.id, { status: event.status });
      return;
    }
    case "ignored":
      return;
  }
}

/**
 * Handle a verified provider event once, however often it is delivered. Throws when it could not be
 * handled (the claim is dropped, so the provider's retry tries again).
 */
export async function handleProviderEvent(
  system: PocketBase,
  event: ProviderEvent,
  timeZone: string,
): Promise<Outcome> {
  const claimed = await claim(system, event);
  if (typeof claimed === "string") return claimed;
  const events = system.collection("giving_provider_events");
  try {
    await apply(system, event, timeZone);
  } catch (error) {
    await events.delete(claimed.id).catch(() => undefined);
    throw error;
  }
  await events.update(claimed.id, { status: "done" });
  return "recorded";
}
