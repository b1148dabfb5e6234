import { randomInt } from "node:crypto";
import { ClientResponseError } from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { conflict, forbidden, fromPocketBase, notFound, pbCall, rateLimited } from "../../errors.ts";
import type {
  PersonRecord,
  PrayerRequestPrivateRecord,
  PrayerRequestRecord,
  SettingsRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { churchLocale, translator } from "../../mail/i18n.ts";
import { notify, type Localized } from "../../system/notifier.ts";
import { alertPrayerPending } from "../../system/staff-alerts.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { connection, keysetFilter, pageArgs, type Cursor } from "../pagination.ts";
import { loadersOf } from "../people/loaders.ts";
import { findById, rowsPointingAt } from "../../pocketbase/records-io.ts";
import { fromPocketBaseDate, todayIn, toPocketBaseDate } from "../../pocketbase/dates.ts";
import { composeMail, sendNotice } from "../../mail/notice.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import {
  isPrayerModerator,
  mayMarkAnswered,
  prayerRequestCan,
  readsEveryRequester,
  seesFullName,
  seesRequester,
} from "../../access/prayer.ts";
import { deviceKey } from "./device.ts";
import { prayerLoadersOf } from "./loaders.ts";
import { isOnGroupWall, isOnWall, subscribeToWall, wallLeftSomeonesView } from "./wall-events.ts";
import { takeOrRefuse } from "../../session/rate-limiter.ts";

/**
 * The prayer wall (PRODUCT.md §4, §5, §9). Every read and write runs with the caller's token, so
 * PocketBase's rules decide who sees which request (public / members / pastoral, the moderation queue)
 * and who may change it. Who asked lives only in `prayer_request_private`, which the rules let only
 * pastoral staff and the requester read: for everyone else an anonymous request has no path back to
 * its requester. System jobs (documented in docs/ARCHITECTURE.md): recording who asked, finding whom
 * to notify, and a visitor's own device marks.
 */

/** "I prayed" notifications: at most one per request per hour (the issue's batching rule). */
const PRAYED_BATCH_WINDOW_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_EXPIRY_DAYS = 60;

/** PocketBase's date-time format. */
const expiryFrom = (settings: SettingsRecord, now: Date) =>
  toPocketBaseDate(new Date(now.getTime() + (settings.prayerExpiryDays || DEFAULT_EXPIRY_DAYS) * DAY_MS));

/** A PocketBase record id (15 of [a-z0-9]), chosen by the gateway so the private row can point at the request. */
function newRecordId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: 15 }, () => alphabet[randomInt(alphabet.length)]).join("");
}

const requireModerator = (ctx: GatewayContext) => requireAbility(ctx, "moderatePrayer");

/** The request as the caller may see it; NOT_FOUND when it is missing or hidden (never reveal which). */
async function requireRequest(ctx: GatewayContext, id: string): Promise<PrayerRequestRecord> {
  const request = await findById<PrayerRequestRecord>(ctx.pb, "prayer_requests", id);
  if (!request) throw notFound();
  return request;
}

/** The caller asked for this request (their private row, read with their own token). */
async function isMine(ctx: GatewayContext, request: PrayerRequestRecord): Promise<boolean> {
  const viewer = await ctx.viewer();
  if (!viewer) return false;
  const row = await prayerLoadersOf(ctx).privateRow.load(request.id);
  return !!row && row.user === viewer.id;
}

const isNotUnique = (error: unknown) =>
  error instanceof ClientResponseError &&
  error.status === 400 &&
  Object.values((error.response?.data ?? {}) as Record<string, { code?: string }>).some(
    (detail) => detail.code === "validation_not_unique",
  );

/** Rows after `cursor` in "field,id" (ascending) order. */
const keysetAfter = (ctx: GatewayContext, field: string, cursor: Cursor) =>
  ctx.pb.filter(`(${field} > {:v} || (${field} = {:v} && id > {:id}))`, { v: cursor.value, id: cursor.id });

const excerpt = (text: string, max = 120) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
/** Where the requester finds the request: on the wall when it is there, else among their own. */
const linkFor = (request: PrayerRequestRecord) =>
  isOnWall(request) ? `/prayer/${request.id}` : "/me/prayer";

/**
 * System job: who asked, for notifying them. The actor (a moderator, someone praying) may not read the
 * private row, and nothing read here goes into the actor's response.
 */
async function whoAsked(ctx: GatewayContext, requestId: string): Promise<PrayerRequestPrivateRecord | null> {
  const system = await ctx.system.get();
  try {
    return await system
      .collection("prayer_request_private")
      .getFirstListItem<PrayerRequestPrivateRecord>(system.filter("request = {:id}", { id: requestId }));
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return null;
    throw error;
  }
}

interface RequesterNotice {
  kind: "prayer_approved" | "prayer_rejected" | "prayer_prayed" | "prayer_answered";
  /** In the requester's language (an account's choice, else the church's; a visitor: the church's). */
  title: Localized<string>;
  body: string;
  batched?: boolean;
  /** Also mail (important events only): the account's address, or a visitor's address for updates. */
  email?: Localized<{ subject: string; text: string }>;
}

/** Tell the requester (never the actor themselves); what happened stays done if this fails. */
async function notifyRequester(
  ctx: GatewayContext,
  request: PrayerRequestRecord,
  actor: UserRecord | null,
  notice: RequesterNotice,
): Promise<void> {
  try {
    const asked = await whoAsked(ctx, request.id);
    if (!asked) return;
    if (asked.user) {
      if (asked.user === actor?.id) return;
      await notify(ctx, {
        userId: asked.user,
        kind: notice.kind,
        title: notice.title,
        body: notice.body,
        link: linkFor(request),
        ...(notice.batched
          ? { groupKey: `prayed:${request.id}`, batchWindowMs: PRAYED_BATCH_WINDOW_MS }
          : {}),
        ...(notice.email ? { email: notice.email } : {}),
      });
      return;
    }
    // A visitor's request: no account to notify in the app; the address they gave gets the important news.
    if (notice.email && asked.submitterEmail) {
      const settings = await ctx.publicSettings.get();
      const locale = churchLocale(settings);
      const t = translator(locale);
      const email = typeof notice.email === "function" ? notice.email(t) : notice.email;
      const link = isOnWall(request)
        ? { url: `${ctx.config.publicUrl}/prayer/${request.id}`, label: t("prayer.button.wall") }
        : undefined;
      await sendNotice(
        ctx.mailer,
        composeMail({
          to: asked.submitterEmail,
          subject: email.subject,
          paragraphs: [email.text],
          ...(link ? { link } : {}),
          churchName: settings.churchName,
          locale,
        }),
        settings.churchName,
      );
    }
  } catch (error) {
    console.error(
      `[prayer] could not notify the requester of ${request.id} (${notice.kind}):`,
      error instanceof Error ? error.message : error,
    );
  }
}

/**
 * The public wall shows a requester's first name only: a full name next to a health detail is for the
 * church family, not for anyone on the internet. Active members, moderators and the requester see
 * the name as given; visitors, and accounts still waiting for approval, see the first name. Done here,
 * where the name is produced for every read path of the app (queries and the live wall alike).
 */
export const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? "";

async function seesFullNames(ctx: GatewayContext, request: PrayerRequestRecord): Promise<boolean> {
  return seesFullName(await ctx.viewer(), () => isMine(ctx, request));
}

/** Visitor forms: THROTTLE.visitorFormsPerIp per client IP per window (PRODUCT.md §9). */
function throttleVisitorForm(ctx: GatewayContext): Promise<void> {
  const key = `form:prayer:${ctx.clientIp}`;
  return takeOrRefuse(ctx.limiter, key, THROTTLE.visitorFormsPerIp, THROTTLE.anonymousFormWindowMs);
}

/**
 * A visitor's "I prayed" is once per device per day, but a device is only a cookie: per client IP,
 * counted marks are limited per request and overall, so a script that drops cookies cannot inflate
 * counts or "someone prayed" notifications. `hit` is called only for marks that counted.
 */
function visitorPrayerThrottle(ctx: GatewayContext, requestId: string) {
  const keys: Array<[string, number]> = [
    [`pray:${ctx.clientIp}:${requestId}`, THROTTLE.visitorPrayersPerIpPerRequest],
    [`pray:${ctx.clientIp}`, THROTTLE.visitorPrayersPerIp],
  ];
  return {
    async check() {
      const waits = await Promise.all(
        keys.map(([key, limit]) => ctx.limiter.retryAfter(key, limit, THROTTLE.anonymousFormWindowMs)),
      );
      const wait = Math.max(...waits);
      if (wait > 0) throw rateLimited(wait);
    },
    async hit() {
      await Promise.all(keys.map(([key]) => ctx.limiter.hit(key, THROTTLE.anonymousFormWindowMs)));
    },
  };
}

const bodyOf = (v: Validator, field: string, value: string) =>
  v.text(field, value, { required: true, min: LIMITS.prayerBodyMin, max: LIMITS.prayerBodyMax });

export const prayerResolvers: Resolvers = {
  Query: {
    async prayerWall(_, { first, after, filter }, ctx) {
      const { size, cursor } = pageArgs(first, after, 20);
      // The rules decide public vs members; the wall shows only what is approved (or answered) and never pastoral requests.
      const statusFilter =
        filter === "ANSWERED" ? 'status = "answered"' : '(status = "approved" || status = "answered")';
      const wall = `${statusFilter} && visibility != "pastoral" && group = ""`;
      const page = [wall, cursor ? keysetFilter(ctx.pb, "created", cursor) : ""].filter(Boolean).join(" && ");
      const rows = await pbCall(() =>
        ctx.pb
          .collection("prayer_requests")
          .getList<PrayerRequestRecord>(1, size + 1, { filter: page, sort: "-created,-id", skipTotal: true }),
      );
      return connection(
        rows.items,
        size,
        (r) => r.created,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("prayer_requests").getList(1, 1, { filter: wall, fields: "id" }),
            )
          ).totalItems,
      );
    },

    prayerRequest: (_, { id }, ctx) => findById<PrayerRequestRecord>(ctx.pb, "prayer_requests", id),

    async prayerQueue(_, { first, after, status }, ctx) {
      const { size, cursor } = pageArgs(first, after, 20);
      await requireModerator(ctx);
      // Moderators without viewPastoralPrayer do not get pastoral requests: the rules leave them out.
      const statusFilter = ctx.pb.filter("status = {:s}", { s: status ?? "pending" });
      const page = [statusFilter, cursor ? keysetAfter(ctx, "created", cursor) : ""]
        .filter(Boolean)
        .join(" && ");
      // The group's name comes with the row (the groups rules decide whether the moderator sees it).
      const rows = await pbCall(() =>
        ctx.pb.collection("prayer_requests").getList<PrayerRequestRecord>(1, size + 1, {
          filter: page,
          sort: "created,id",
          skipTotal: true,
          expand: "group",
        }),
      );
      return connection(
        rows.items,
        size,
        (r) => r.created,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("prayer_requests").getList(1, 1, { filter: statusFilter, fields: "id" }),
            )
          ).totalItems,
      );
    },

    async myPrayerRequests(_, { first, after }, ctx) {
      const { size, cursor } = pageArgs(first, after, 20);
      const viewer = await requireViewer(ctx);
      // "Mine" is decided by the private rows the caller may read as the requester (their token). The
      // rule shows others only their own rows, so they need no filter, and must not have one: an empty
      // filtered list (nothing asked yet) is answered after PocketBase's random 0–500 ms throttle.
      const mine = readsEveryRequester(viewer) ? ctx.pb.filter("user = {:user}", { user: viewer.id }) : "";
      const page = [mine, cursor ? keysetFilter(ctx.pb, "created", cursor) : ""].filter(Boolean).join(" && ");
      const rows = await pbCall(() =>
        ctx.pb.collection("prayer_request_private").getList<PrayerRequestPrivateRecord>(1, size + 1, {
          filter: page,
          sort: "-created,-id",
          skipTotal: true,
        }),
      );
      const loaders = prayerLoadersOf(ctx);
      for (const row of rows.items) loaders.privateRow.prime(row.request, row);
      const requestIds = rows.items.slice(0, size).map((row) => row.request);
      const requests = requestIds.length
        ? await pbCall(() =>
            ctx.pb.collection("prayer_requests").getFullList<PrayerRequestRecord>({
              filter: requestIds.map((id) => ctx.pb.filter("id = {:id}", { id })).join(" || "),
            }),
          )
        : [];
      const byId = new Map(requests.map((r) => [r.id, r]));
      const page1 = connection(
        rows.items,
        size,
        (row) => row.created,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("prayer_request_private").getList(1, 1, { filter: mine, fields: "id" }),
            )
          ).totalItems,
      );
      return {
        ...page1,
        edges: page1.edges.flatMap((edge) => {
          const node = byId.get(edge.node.request);
          return node ? [{ node, cursor: edge.cursor }] : [];
        }),
      };
    },
  },

  Mutation: {
    async submitPrayerRequest(_, { input }, ctx) {
      const viewer = await ctx.viewer();
      // A group's request: members only (the rules check the membership), never the wall.
      const group = input.groupId ?? "";
      if (group && !viewer) throw forbidden();
      const visibility = group ? "members" : input.visibility;
      const anonymous = input.anonymous;
      // Spam traps fill the field people never see: answer as if it worked (a pending request that
      // nobody can find), store nothing.
      if (input.website?.trim()) {
        const now = toPocketBaseDate(new Date());
        return {
          id: newRecordId(),
          collectionId: "",
          collectionName: "prayer_requests",
          created: now,
          updated: now,
          body: input.body.trim(),
          visibility,
          anonymous,
          authorName: anonymous ? "" : (input.name?.trim() ?? ""),
          status: "pending",
          prayedCount: 0,
          flagCount: 0,
          answerNote: "",
          rejectReason: "",
          approvedAt: "",
          answeredAt: "",
          expiresAt: "",
          group,
        } satisfies PrayerRequestRecord;
      }
      const v = new Validator();
      const body = bodyOf(v, "body", input.body);
      let name: string;
      let email: string;
      if (viewer) {
        // The rules require a signed-in requester's shown name to be their account name.
        name = viewer.name;
        email = viewer.email;
      } else {
        name = v.text("name", input.name, { required: !anonymous, max: LIMITS.nameMax });
        email = v.email("email", input.email);
      }
      v.done();
      if (!viewer) await throttleVisitorForm(ctx);

      const settings = await ctx.publicSettings.get();
      const now = new Date();
      const approved = settings.prayerRequiresApproval === false;
      const id = newRecordId();
      const data = {
        id,
        body,
        visibility,
        anonymous,
        authorName: anonymous ? "" : name,
        status: approved ? "approved" : "pending",
        prayedCount: 0,
        flagCount: 0,
        answerNote: "",
        rejectReason: "",
        approvedAt: approved ? toPocketBaseDate(now) : "",
        answeredAt: "",
        expiresAt: approved ? expiryFrom(settings, now) : "",
        group,
      } as const;
      const created = await pbCall(() =>
        ctx.pb.collection("prayer_requests").create<PrayerRequestRecord>(data),
      );

      // System job (docs/ARCHITECTURE.md): who asked is recorded by the system, never by the requester,
      // who must not be able to claim someone else's request (the collection has no create rule).
      const system = await ctx.system.get();
      try {
        await system.collection("prayer_request_private").create({
          request: id,
          user: viewer?.id ?? "",
          person: viewer?.person ?? "",
          submitterName: name,
          submitterEmail: email,
        });
      } catch (error) {
        // A request nobody can mark answered or be told about is worse than asking again.
        await system
          .collection("prayer_requests")
          .delete(id)
          .catch(() => undefined);
        throw error;
      }
      // Not awaited: the requester does not wait for the staff's mail (alertStaff never throws).
      if (data.status === "pending") void alertPrayerPending(ctx, data, viewer?.id);
      // A visitor may not read back what they just created (pending): answer with what was stored.
      const stamp = toPocketBaseDate(now);
      return {
        collectionId: "",
        collectionName: "prayer_requests",
        created: stamp,
        updated: stamp,
        ...data,
        ...(created?.id ? created : {}),
      } as PrayerRequestRecord;
    },

    async prayFor(_, { id }, ctx) {
      const viewer = await ctx.viewer();
      const request = await requireRequest(ctx, id);
      if (
        !isOnWall(request) &&
        !isOnGroupWall(request) &&
        !(
          request.visibility === "pastoral" &&
          (request.status === "approved" || request.status === "answered")
        )
      ) {
        throw conflict("Only requests on the prayer wall can be prayed for.", "not_on_wall");
      }
      const throttle = viewer ? null : visitorPrayerThrottle(ctx, id);
      await throttle?.check();
      const settings = await ctx.publicSettings.get();
      const day = todayIn(settings.timezone);
      const mark = viewer
        ? { request: id, user: viewer.id, deviceKey: "", day }
        : { request: id, user: "", deviceKey: deviceKey(ctx, { issue: true }), day };
      let counted = true;
      try {
        await ctx.pb.collection("prayer_marks").create(mark, { fields: "id" });
      } catch (error) {
        // Once per user (or device) per day, held by unique indexes: a second "I prayed" changes nothing.
        if (isNotUnique(error)) counted = false;
        else fromPocketBase(error);
      }
      if (counted) await throttle?.hit();
      prayerLoadersOf(ctx).prayedToday.prime(id, true);
      // pb_hooks counted the mark before the create answered: the re-read has the new count.
      const fresh = (await findById<PrayerRequestRecord>(ctx.pb, "prayer_requests", id)) ?? request;
      if (counted) {
        await notifyRequester(ctx, fresh, viewer, {
          kind: "prayer_prayed",
          title: (t) => t("prayer.prayed.title"),
          body: excerpt(fresh.body),
          batched: true,
        });
      }
      return fresh;
    },

    async flagPrayerRequest(_, { id, reason }, ctx) {
      const viewer = await requireViewer(ctx);
      if (viewer.expand?.person?.recordStatus !== "active") throw forbidden();
      const v = new Validator();
      const why = v.text("reason", reason, { max: LIMITS.prayerFlagReasonMax });
      v.done();
      const request = await requireRequest(ctx, id);
      // A group's members may flag its requests too (the flag rule keeps them to the group).
      if (!isOnWall(request) && !isOnGroupWall(request))
        throw conflict("Only requests on the prayer wall can be flagged.", "not_on_wall");
      try {
        await ctx.pb
          .collection("prayer_flags")
          .create({ request: id, user: viewer.id, reason: why }, { fields: "id" });
      } catch (error) {
        // One flag per member per request: flagging again changes nothing.
        if (!isNotUnique(error)) fromPocketBase(error);
      }
      prayerLoadersOf(ctx).flagged.prime(id, true);
      const fresh = await findById<PrayerRequestRecord>(ctx.pb, "prayer_requests", id);
      if (fresh && (isOnWall(fresh) || isOnGroupWall(fresh))) return fresh;
      // The third flag sent it back to moderation (pb_hooks/prayer.pb.js): members' PocketBase
      // connections no longer hear about it, so every open wall is told to refetch.
      wallLeftSomeonesView(ctx.realtime);
      return fresh ?? { ...request, status: "pending" };
    },

    async approvePrayerRequest(_, { id }, ctx) {
      const viewer = await requireModerator(ctx);
      const request = await requireRequest(ctx, id);
      if (request.status === "answered" || request.status === "archived")
        throw conflict("This request can no longer be approved.", "not_pending");
      // Approving clears the flags, so three new ones are needed to send it back (pb_hooks recounts).
      for (const flag of await rowsPointingAt(ctx.pb, "prayer_flags", "request", id, "id")) {
        await pbCall(() => ctx.pb.collection("prayer_flags").delete(flag.id));
      }
      const settings = await ctx.publicSettings.get();
      const now = new Date();
      const approved = await pbCall(() =>
        ctx.pb.collection("prayer_requests").update<PrayerRequestRecord>(id, {
          status: "approved",
          approvedAt: toPocketBaseDate(now),
          expiresAt: expiryFrom(settings, now),
          rejectReason: "",
        }),
      );
      // Only the first approval is news to the requester (not a re-approval after flags).
      if (!request.approvedAt) {
        await notifyRequester(ctx, approved, viewer, {
          kind: "prayer_approved",
          title: (t) => t("prayer.approved.title"),
          body: excerpt(approved.body),
          email: (t) => ({
            subject: t("prayer.approved.subject", { church: settings.churchName }),
            text: `${t(isOnWall(approved) ? "prayer.approved.wall" : isOnGroupWall(approved) ? "prayer.approved.group" : "prayer.approved.pastoral")}\n\n${excerpt(approved.body, 500)}`,
          }),
        });
      }
      return approved;
    },

    async rejectPrayerRequest(_, { id, reason }, ctx) {
      const viewer = await requireModerator(ctx);
      const v = new Validator();
      const why = v.text("reason", reason, { required: true, min: 1, max: LIMITS.prayerRejectReasonMax });
      v.done();
      const request = await requireRequest(ctx, id);
      if (request.status === "answered" || request.status === "archived")
        throw conflict("This request can no longer be rejected.", "not_pending");
      const rejected = await pbCall(() =>
        ctx.pb
          .collection("prayer_requests")
          .update<PrayerRequestRecord>(id, { status: "rejected", rejectReason: why }),
      );
      if (isOnWall(request)) wallLeftSomeonesView(ctx.realtime);
      if (request.status !== "rejected") {
        await notifyRequester(ctx, rejected, viewer, {
          kind: "prayer_rejected",
          title: (t) => t("prayer.rejected.title"),
          body: why,
        });
      }
      return rejected;
    },

    async editPrayerRequest(_, { id, body }, ctx) {
      await requireModerator(ctx);
      const v = new Validator();
      const text = bodyOf(v, "body", body);
      v.done();
      await requireRequest(ctx, id);
      return pbCall(() =>
        ctx.pb.collection("prayer_requests").update<PrayerRequestRecord>(id, { body: text }),
      );
    },

    async markPrayerAnswered(_, { id, note }, ctx) {
      await requireViewer(ctx);
      const v = new Validator();
      const answerNote = v.text("note", note, { required: true, min: 1, max: LIMITS.prayerAnswerNoteMax });
      v.done();
      const request = await requireRequest(ctx, id);
      const viewer = await ctx.viewer();
      if (!mayMarkAnswered(viewer, await isMine(ctx, request))) throw forbidden();
      if (request.status !== "approved")
        throw conflict("Only an approved request can be marked answered.", "not_approved");
      const answered = await pbCall(() =>
        ctx.pb.collection("prayer_requests").update<PrayerRequestRecord>(id, {
          status: "answered",
          answerNote,
          answeredAt: toPocketBaseDate(new Date()),
        }),
      );
      // notifyRequester skips the requester when they are the one who marked it.
      const settings = await ctx.publicSettings.get();
      await notifyRequester(ctx, answered, viewer, {
        kind: "prayer_answered",
        title: (t) => t("prayer.answered.title"),
        body: excerpt(answerNote),
        email: (t) => ({
          subject: t("prayer.answered.subject", { church: settings.churchName }),
          text: `${t("prayer.answered.text")}\n\n${excerpt(answerNote, 500)}`,
        }),
      });
      return answered;
    },
  },

  Subscription: {
    prayerWall: {
      subscribe: (_, __, ctx) => subscribeToWall(ctx) as never,
      resolve: (event: unknown) => event as never,
    },
    groupPrayer: {
      // PocketBase sends each subscriber only the requests its rules let them read (the group's active
      // members, moderators); the gateway keeps those of this group on its wall.
      subscribe: async (_, { groupId }, ctx) => {
        await requireViewer(ctx);
        return subscribeToWall(ctx, (r) => isOnGroupWall(r) && r.group === groupId) as never;
      },
      resolve: (event: unknown) => event as never,
    },
  },

  PrayerRequest: {
    anonymous: (r) => !!r.anonymous,
    // Anonymous requests never carry a name; the stored one is "" anyway (the create rule).
    async authorName(r, _, ctx) {
      if (r.anonymous || !r.authorName) return null;
      return (await seesFullNames(ctx, r)) ? r.authorName : firstNameOf(r.authorName);
    },
    prayedCount: (r) => r.prayedCount ?? 0,
    prayedToday: (r, _, ctx) => prayerLoadersOf(ctx).prayedToday.load(r.id),
    flagCount: async (r, _, ctx) => (isPrayerModerator(await ctx.viewer()) ? (r.flagCount ?? 0) : 0),
    answerNote: (r) => r.answerNote || null,
    answeredAt: (r) => (r.answeredAt ? fromPocketBaseDate(r.answeredAt) : null),
    async rejectReason(r, _, ctx) {
      if (!r.rejectReason) return null;
      if (isPrayerModerator(await ctx.viewer())) return r.rejectReason;
      return (await isMine(ctx, r)) ? r.rejectReason : null;
    },
    expiresAt: (r) => (r.expiresAt ? fromPocketBaseDate(r.expiresAt) : null),
    created: (r) => fromPocketBaseDate(r.created),
    groupId: (r) => r.group || null,
    async groupName(r, _, ctx) {
      if (!r.group) return null;
      if (r.expand?.group) return r.expand.group.name;
      return prayerLoadersOf(ctx).groupName.load(r.group);
    },
    isMine: (r, _, ctx) => isMine(ctx, r),
    flaggedByMe: (r, _, ctx) => prayerLoadersOf(ctx).flagged.load(r.id),
    async requester(r, _, ctx) {
      const viewer = await ctx.viewer();
      if (!viewer) return null;
      const row = await prayerLoadersOf(ctx).privateRow.load(r.id);
      if (!row) return null;
      // The rules already limit the row to these two; checked again because a leak here is the one that matters.
      if (!seesRequester(viewer, row)) return null;
      return {
        name: row.submitterName,
        email: row.submitterEmail || null,
        // Resolved only when asked for, under the caller's people rules.
        person: (() =>
          row.person ? loadersOf(ctx).person.load(row.person) : null) as unknown as PersonRecord,
      };
    },
    // PrayerRequestCan answers field by field from the request (access/prayer.ts).
    can: (r) => r,
  },
  PrayerRequestCan: {
    moderate: async (r, _, ctx) => prayerRequestCan.moderate(await ctx.viewer(), r),
    flag: async (r, _, ctx) => prayerRequestCan.flag(await ctx.viewer(), isOnWall(r) || isOnGroupWall(r)),
    async markAnswered(r, _, ctx) {
      const viewer = await ctx.viewer();
      // Who asked is read only where it could change the answer: a signed-in caller, an approved request.
      const mine = !!viewer && r.status === "approved" && (await isMine(ctx, r));
      return prayerRequestCan.markAnswered(viewer, r, mine);
    },
  },
};
