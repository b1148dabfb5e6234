import type { GatewayContext } from "../../context.ts";
import { payloadTooLarge, pbCall, unsupportedFileType } from "../../errors.ts";
import type { SettingsRecord } from "../../pocketbase/records.ts";
import { brandChanged, syncPocketBaseSettings } from "../../system/pocketbase-settings.ts";
import { LIMITS } from "@flock/shared/limits";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { isEmail, isTimeZone, Validator } from "../../validation/validate.ts";
import type { Resolvers, UpdateSettingsInput } from "../__generated__/types.ts";
import { requireAbility } from "../../access/guards.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";

function validateSettings(input: UpdateSettingsInput): Record<string, unknown> {
  const v = new Validator();
  const data: Record<string, unknown> = {};
  if (input.churchName !== undefined && input.churchName !== null) {
    data.churchName = v.text("churchName", input.churchName, { required: true, max: LIMITS.nameMax });
  }
  if (input.tagline != null) data.tagline = v.text("tagline", input.tagline, { max: LIMITS.taglineMax });
  if (input.brandColor != null) {
    const color = input.brandColor.trim();
    if (color && !/^#[0-9a-fA-F]{6}$/.test(color))
      v.add("brandColor", "invalid_color", "Use a colour like #1f6feb.");
    data.brandColor = color.toLowerCase();
  }
  if (input.timezone != null) {
    if (!isTimeZone(input.timezone))
      v.add("timezone", "invalid_timezone", "Choose a time zone from the list.");
    data.timezone = input.timezone;
  }
  if (input.locale != null) data.locale = input.locale;
  if (input.address != null) data.address = v.text("address", input.address, { max: LIMITS.addressMax });
  if (input.phone != null) data.phone = v.text("phone", input.phone, { max: LIMITS.phoneMax });
  if (input.email != null) {
    const email = input.email.trim().toLowerCase();
    if (email && !isEmail(email)) v.add("email", "invalid_email", "Enter a valid email address.");
    data.email = email;
  }
  if (input.serviceTimes != null) {
    if (input.serviceTimes.length > LIMITS.serviceTimesMax) {
      v.add("serviceTimes", "too_many", `At most ${LIMITS.serviceTimesMax} service times.`);
    }
    data.serviceTimes = input.serviceTimes.map((time, i) => {
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time.time))
        v.add(`serviceTimes.${i}.time`, "invalid_time", "Use a time like 10:30.");
      const label = v.text(`serviceTimes.${i}.label`, time.label, { max: LIMITS.serviceTimeLabelMax });
      return { day: time.day, time: time.time, label };
    });
  }
  if (input.socialLinks != null) {
    const links: Record<string, string> = {};
    for (const [key, value] of Object.entries(input.socialLinks)) {
      const url = (value ?? "").trim();
      if (!url) continue;
      if (!/^https:\/\/[^\s]+$/.test(url) || url.length > 300)
        v.add(`socialLinks.${key}`, "invalid_url", "Use a full https:// address.");
      links[key] = url;
    }
    data.socialLinks = links;
  }
  if (input.allowSignup != null) data.allowSignup = input.allowSignup;
  if (input.directoryDefaultVisibility != null)
    data.directoryDefaultVisibility = input.directoryDefaultVisibility;
  if (input.prayerRequiresApproval != null) data.prayerRequiresApproval = input.prayerRequiresApproval;
  if (input.prayerPublicWall != null) data.prayerPublicWall = input.prayerPublicWall;
  if (input.checkinRatioMode != null) data.checkinRatioMode = input.checkinRatioMode;
  if (input.prayerExpiryDays != null) {
    if (
      !Number.isInteger(input.prayerExpiryDays) ||
      input.prayerExpiryDays < 1 ||
      input.prayerExpiryDays > 3650
    ) {
      v.add("prayerExpiryDays", "out_of_range", "Use a number of days between 1 and 3650.");
    }
    data.prayerExpiryDays = input.prayerExpiryDays;
  }
  if (input.statementText != null)
    data.statementText = v.text("statementText", input.statementText, {
      max: GIVING_LIMITS.statementTextMax,
    });
  v.done();
  return data;
}

async function saveSettings(
  ctx: GatewayContext,
  data: Record<string, unknown> | FormData,
): Promise<SettingsRecord> {
  await requireAbility(ctx, "manageSettings");
  const current = await ctx.publicSettings.get();
  const updated = await pbCall(() => ctx.pb.collection("settings").update<SettingsRecord>(current.id, data));
  ctx.publicSettings.set(updated);
  if (brandChanged(current, updated)) {
    await syncPocketBaseSettings(await ctx.system.get(), ctx.config, updated);
  }
  return updated;
}

const THUMBS = { ORIGINAL: "", HEADER: "0x96", SQUARE: "192x192" } as const;

export const settingsResolvers: Resolvers = {
  Query: {
    settings: (_, __, ctx) => ctx.publicSettings.get(),
  },
  Mutation: {
    async updateSettings(_, { input }, ctx) {
      return saveSettings(ctx, validateSettings(input));
    },
    async uploadLogo(_, { file }, ctx) {
      await requireAbility(ctx, "manageSettings");
      if (!(LIMITS.imageMimeTypes as readonly string[]).includes(file.type))
        throw unsupportedFileType(["JPEG", "PNG", "WebP", "GIF"]);
      if (file.size > LIMITS.imageMaxBytes) throw payloadTooLarge(LIMITS.imageMaxBytes);
      // Yoga's File is not a Blob on Node 20 and the SDK would silently drop it: copy into a native File.
      const logo = new File([await file.arrayBuffer()], file.name || "logo", { type: file.type });
      return saveSettings(ctx, { logo });
    },
    async removeLogo(_, __, ctx) {
      return saveSettings(ctx, { logo: null });
    },
  },
  Subscription: {
    settingsChanged: {
      subscribe: (_, __, ctx) => ctx.settingsEvents.subscribe(),
      resolve: (record: SettingsRecord) => record,
    },
  },
  Settings: {
    tagline: (s) => s.tagline ?? "",
    logoUrl: (s, { size }, ctx) => {
      if (!s.logo) return null;
      const thumb = THUMBS[size ?? "ORIGINAL"];
      return `${ctx.config.publicUrl}/files/${s.collectionId}/${s.id}/${encodeURIComponent(s.logo)}${thumb ? `?thumb=${thumb}` : ""}`;
    },
    brandColor: (s) => s.brandColor ?? "",
    locale: (s) => s.locale || "en",
    address: (s) => s.address ?? "",
    phone: (s) => s.phone ?? "",
    email: (s) => s.email ?? "",
    serviceTimes: (s) =>
      (s.serviceTimes ?? []).map((t) => ({ day: t.day, time: t.time, label: t.label ?? "" })),
    socialLinks: (s) => s.socialLinks ?? {},
    directoryDefaultVisibility: (s) => s.directoryDefaultVisibility || "members",
    prayerExpiryDays: (s) => s.prayerExpiryDays || 60,
    prayerPublicWall: (s) => s.prayerPublicWall !== false,
    checkinRatioMode: (s) => s.checkinRatioMode || "refuse",
    statementText: (s) => s.statementText ?? "",
    updated: (s) => fromPocketBaseDate(s.updated),
  },
};
