import { randomBytes } from "node:crypto";
import type { GatewayContext } from "../../context.ts";
import { notFound, pbCall } from "../../errors.ts";
import { formatApiToken, newSecret } from "../../access/api-tokens.ts";
import { requireAbility } from "../../access/guards.ts";
import type { ApiClientRecord, WebhookDeliveryRecord, WebhookRecord } from "../../pocketbase/records.ts";
import { newWebhookSecret, refuseTarget } from "../../system/webhooks.ts";
import { fromPocketBaseDate, fromPocketBaseDateOrNull, toPocketBaseDate } from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import { LIMITS } from "@flock/shared/limits";
import { writeAsCaller } from "../../pocketbase/write.ts";
import type { Resolvers } from "../__generated__/types.ts";

/** The longest an expiry may be set ahead. */
const MAX_EXPIRY_MS = 2 * 366 * 24 * 60 * 60 * 1000;
/** Listed at most (a church has a handful; revoked ones stay listed for their history). */
const LIST_MAX = 500;

const statusOf = (client: ApiClientRecord, now = Date.now()) =>
  client.revokedAt
    ? "REVOKED"
    : client.expiresAt && Date.parse(fromPocketBaseDate(client.expiresAt)) <= now
      ? "EXPIRED"
      : "ACTIVE";

/** The token's visible beginning: the prefix and the client id, never any of the secret. */
const hintOf = (client: ApiClientRecord) => formatApiToken(client.id, "").replace(/_$/, "_…");

async function readClient(ctx: GatewayContext, id: string): Promise<ApiClientRecord> {
  try {
    return await ctx.pb
      .collection("api_clients")
      .getOne<ApiClientRecord>(id, { expand: "createdBy,api_client_usage_via_client" });
  } catch {
    throw notFound();
  }
}

async function readWebhook(ctx: GatewayContext, id: string): Promise<WebhookRecord> {
  try {
    return await ctx.pb.collection("webhooks").getOne<WebhookRecord>(id, { expand: "createdBy" });
  } catch {
    throw notFound();
  }
}

export const integrationsResolvers: Resolvers = {
  Query: {
    async webhooks(_, __, ctx) {
      await requireAbility(ctx, "manageIntegrations");
      const page = await pbCall(() =>
        ctx.pb.collection("webhooks").getList<WebhookRecord>(1, LIST_MAX, {
          sort: "-created,-id",
          expand: "createdBy",
          skipTotal: true,
        }),
      );
      return page.items;
    },
    async apiTokens(_, __, ctx) {
      await requireAbility(ctx, "manageIntegrations");
      const page = await pbCall(() =>
        ctx.pb.collection("api_clients").getList<ApiClientRecord>(1, LIST_MAX, {
          // Check-in stations' identities are kept with the stations (/admin/checkin), not here.
          filter: 'scopes !~ "checkin.station"',
          sort: "-created,-id",
          expand: "createdBy,api_client_usage_via_client",
          skipTotal: true,
        }),
      );
      return page.items;
    },
  },
  Mutation: {
    async createApiToken(_, { input }, ctx) {
      const viewer = await requireAbility(ctx, "manageIntegrations");
      const v = new Validator();
      const name = v.text("name", input.name, { required: true, max: LIMITS.apiTokenNameMax });
      let expiresAt: string | null = null;
      if (input.expiresAt) {
        const at = Date.parse(input.expiresAt);
        if (!(at > Date.now())) v.add("expiresAt", "date_in_past", "Choose a date in the future.");
        else if (at - Date.now() > MAX_EXPIRY_MS)
          v.add("expiresAt", "date_too_far", "Choose a date at most two years ahead.");
        else expiresAt = toPocketBaseDate(new Date(at));
      }
      v.done();
      const { secret, secretHash } = newSecret();
      // An auth record needs an address and a password; nobody signs in with either (the
      // collection allows no password sign-in), so both are random and never shown.
      const throwaway = randomBytes(24).toString("base64url");
      const created = await writeAsCaller(() =>
        ctx.pb.collection("api_clients").create<ApiClientRecord>(
          {
            name,
            scopes: [...new Set(input.scopes)],
            createdBy: viewer.id,
            expiresAt: expiresAt ?? "",
            email: `${randomBytes(9).toString("hex")}@api-clients.invalid`,
            emailVisibility: false,
            password: throwaway,
            passwordConfirm: throwaway,
          },
          { expand: "createdBy,api_client_usage_via_client" },
        ),
      );
      // The hash is a hidden field, which only the system may write: the manager's create above is
      // what PocketBase's rules authorize; this only stores the credential of the record just made.
      const system = await ctx.system.get();
      await system.collection("api_clients").update(created.id, { secretHash });
      return { token: created, secret: formatApiToken(created.id, secret) };
    },
    async createWebhook(_, { input }, ctx) {
      const viewer = await requireAbility(ctx, "manageIntegrations");
      const v = new Validator();
      const url = v.text("url", input.url, { required: true, max: LIMITS.webhookUrlMax });
      const description = v.text("description", input.description, { max: LIMITS.webhookDescriptionMax });
      if (!input.events.length) v.add("events", "required", "Choose at least one event.");
      const allowPrivateHost = !!input.allowPrivateHost;
      if (url) {
        const refused = await refuseTarget(url, allowPrivateHost);
        if (refused) v.add("url", refused.code, refused.message);
      }
      v.done();
      const created = await writeAsCaller(() =>
        ctx.pb.collection("webhooks").create<WebhookRecord>(
          {
            url,
            description,
            events: [...new Set(input.events)],
            allowPrivateHost,
            enabled: true,
            consecutiveFailures: 0,
            createdBy: viewer.id,
          },
          { expand: "createdBy" },
        ),
      );
      // The secret is a hidden field, which only the system may write (as with API tokens).
      const secret = newWebhookSecret();
      const system = await ctx.system.get();
      await system.collection("webhooks").update(created.id, { secret });
      return { webhook: created, secret };
    },
    async setWebhookEnabled(_, { id, enabled }, ctx) {
      await requireAbility(ctx, "manageIntegrations");
      await readWebhook(ctx, id);
      return writeAsCaller(() =>
        ctx.pb
          .collection("webhooks")
          .update<WebhookRecord>(
            id,
            enabled ? { enabled, disabledReason: "", consecutiveFailures: 0 } : { enabled },
            { expand: "createdBy" },
          ),
      );
    },
    async deleteWebhook(_, { id }, ctx) {
      await requireAbility(ctx, "manageIntegrations");
      await readWebhook(ctx, id);
      await writeAsCaller(() => ctx.pb.collection("webhooks").delete(id));
      return true;
    },
    async redeliverWebhook(_, { deliveryId }, ctx) {
      await requireAbility(ctx, "manageIntegrations");
      try {
        await ctx.pb.collection("webhook_deliveries").getOne(deliveryId, { fields: "id" });
      } catch {
        throw notFound();
      }
      return writeAsCaller(() =>
        ctx.pb.collection("webhook_deliveries").update<WebhookDeliveryRecord>(deliveryId, {
          status: "pending",
          attempts: 0,
          nextAttemptAt: toPocketBaseDate(new Date()),
          error: "",
        }),
      );
    },
    async revokeApiToken(_, { id }, ctx) {
      await requireAbility(ctx, "manageIntegrations");
      const client = await readClient(ctx, id);
      if (client.revokedAt) return client;
      const revoked = await writeAsCaller(() =>
        ctx.pb
          .collection("api_clients")
          .update<ApiClientRecord>(
            id,
            { revokedAt: toPocketBaseDate(new Date()) },
            { expand: "createdBy,api_client_usage_via_client" },
          ),
      );
      ctx.apiTokens.forget(id);
      // Its open streams end now in this process (the others' credential checks end theirs).
      await ctx.realtime.endCredential("api", id);
      return revoked;
    },
  },
  Webhook: {
    description: (w) => w.description ?? "",
    events: (w) => w.events ?? [],
    allowPrivateHost: (w) => !!w.allowPrivateHost,
    enabled: (w) => !!w.enabled,
    disabledReason: (w) => w.disabledReason || null,
    consecutiveFailures: (w) => w.consecutiveFailures ?? 0,
    createdByName: (w) => w.expand?.createdBy?.name || null,
    created: (w) => fromPocketBaseDate(w.created),
    async deliveries(w, { first }, ctx) {
      const size = Math.min(Math.max(first ?? 20, 1), 100);
      const page = await pbCall(() =>
        ctx.pb.collection("webhook_deliveries").getList<WebhookDeliveryRecord>(1, size, {
          filter: ctx.pb.filter("webhook = {:w}", { w: w.id }),
          sort: "-created,-id",
          skipTotal: true,
        }),
      );
      return page.items;
    },
  },
  WebhookDelivery: {
    event: (d) => d.type,
    attempts: (d) => d.attempts ?? 0,
    nextAttemptAt: (d) => (d.status === "pending" ? fromPocketBaseDateOrNull(d.nextAttemptAt) : null),
    lastAttemptAt: (d) => fromPocketBaseDateOrNull(d.lastAttemptAt),
    responseStatus: (d) => d.responseStatus || null,
    error: (d) => d.error || null,
    created: (d) => fromPocketBaseDate(d.created),
  },
  ApiToken: {
    // A station's identity is never listed here (its scope is not a token scope).
    scopes: (client) => (client.scopes ?? []).filter((scope) => scope !== "checkin.station"),
    hint: (client) => hintOf(client),
    status: (client) => statusOf(client),
    createdByName: (client) => client.expand?.createdBy?.name || null,
    created: (client) => fromPocketBaseDate(client.created),
    expiresAt: (client) => fromPocketBaseDateOrNull(client.expiresAt),
    revokedAt: (client) => fromPocketBaseDateOrNull(client.revokedAt),
    lastUsedAt: (client) => fromPocketBaseDateOrNull(client.expand?.api_client_usage_via_client?.lastUsedAt),
    lastUsedIp: (client) => client.expand?.api_client_usage_via_client?.lastUsedIp || null,
  },
};
