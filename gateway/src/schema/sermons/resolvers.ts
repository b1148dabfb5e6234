import { checkedImageFile } from "../../pocketbase/image-file.ts";
import { parseFile } from "music-metadata";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, payloadTooLarge, pbCall, staleRevision, unsupportedFileType } from "../../errors.ts";
import type { SermonRecord, SermonSeriesRecord, SpeakerRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type {
  Resolvers,
  SermonInput,
  SermonStatus,
  SermonSeriesInput,
  SpeakerInput,
} from "../__generated__/types.ts";
import { connection, keysetFilter, pageArgs } from "../pagination.ts";
import { requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { chooseSlug } from "../../pocketbase/slugs.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { renderBody } from "../../markdown/body.ts";
import { readsSermonDrafts, sermonCan } from "../../access/sermons.ts";
import { slugify } from "@flock/shared/slug";
import { checkAudioFile } from "./audio-file.ts";
import { streamRecordUpdate } from "../../pocketbase/stream-upload.ts";
import {
  BIBLE_BOOKS,
  bookName,
  booksInSearch,
  booksField,
  formatRange,
  formatScripture,
  isBook,
  parseScripture,
  type ScriptureLocale,
} from "./scripture.ts";
import { parseVideoUrl } from "./video.ts";
import { fromPocketBaseDate, fromPocketBaseDateOrNull, pocketBaseNow } from "../../pocketbase/dates.ts";
import { publishedRangeFilter } from "../published-range.ts";

const EXPAND = "series,speakers";
const AUDIO_TYPES_SHOWN = ["MP3", "M4A", "AAC", "OGG", "WAV"];
const localeOf = (locale: string | null | undefined): ScriptureLocale =>
  locale?.toLowerCase().startsWith("es") ? "es" : "en";
const defined = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));

/** Read one sermon (series and speakers expanded: one call) as the caller; null when missing or hidden. */
async function findSermon(ctx: GatewayContext, filter: string): Promise<SermonRecord | null> {
  const page = await pbCall(() =>
    ctx.pb.collection("sermons").getList<SermonRecord>(1, 1, { filter, skipTotal: true, expand: EXPAND }),
  );
  return page.items[0] ?? null;
}

const requireSermon = (ctx: GatewayContext, id: string) =>
  pbCall(() => ctx.pb.collection("sermons").getOne<SermonRecord>(id, { expand: EXPAND }));

interface SermonListArgs {
  first?: number | null;
  after?: string | null;
  search?: string | null;
  seriesId?: string | null;
  speakerId?: string | null;
  book?: string | null;
  year?: number | null;
  status?: SermonStatus | null;
  includeDrafts?: boolean | null;
  publishedAfter?: string | null;
  publishedBefore?: string | null;
}

/**
 * A page of sermons, newest preached first, in one PocketBase call: series and speakers come along
 * through `expand` (QUALITY P2: the number of calls does not grow with the page size).
 */
async function listSermons(ctx: GatewayContext, args: SermonListArgs, fallbackSize = 12) {
  const { size, cursor } = pageArgs(args.first, args.after, fallbackSize);
  const filters: string[] = [];
  const q = args.search?.trim().slice(0, LIMITS.searchMax);
  if (q) {
    // A reference in the search ("Romans", "Jn 3") also finds sermons on that book.
    const books = booksInSearch(q);
    const byBook = books.map((book) => ctx.pb.filter("scriptureBooks ~ {:b}", { b: `|${book}|` }));
    filters.push(
      `(${[ctx.pb.filter("title ~ {:q} || summary ~ {:q} || notes ~ {:q} || scripture ~ {:q} || speakers.name ?~ {:q}", { q }), ...byBook].join(" || ")})`,
    );
  }
  if (args.seriesId) filters.push(ctx.pb.filter("series = {:s}", { s: args.seriesId }));
  if (args.speakerId) filters.push(ctx.pb.filter("speakers.id ?= {:s}", { s: args.speakerId }));
  if (args.book) {
    if (!isBook(args.book)) throw badUserInput({ book: { code: "invalid", message: "Unknown book." } });
    filters.push(ctx.pb.filter("scriptureBooks ~ {:b}", { b: `|${args.book}|` }));
  }
  if (args.year != null) {
    if (!Number.isInteger(args.year) || args.year < 1900 || args.year > 2200)
      throw badUserInput({ year: { code: "out_of_range", message: "Choose a year between 1900 and 2200." } });
    filters.push(
      ctx.pb.filter("preachedOn >= {:from} && preachedOn < {:to}", {
        from: `${args.year}-01-01 00:00:00.000Z`,
        to: `${args.year + 1}-01-01 00:00:00.000Z`,
      }),
    );
  }
  filters.push(...publishedRangeFilter(ctx.pb, args.publishedAfter, args.publishedBefore));
  // Published sermons, for a caller who reads no drafts, are the list rule's own answer: no filter
  // (access/sermons.ts#readsSermonDrafts: a church with no sermons yet is not answered after
  // PocketBase's per-IP random delay for empty filtered lists).
  const drafts = readsSermonDrafts(await ctx.viewer());
  if (args.status && (args.status !== "published" || drafts))
    filters.push(ctx.pb.filter("status = {:s}", { s: args.status }));
  else if (!args.status && !args.includeDrafts && drafts) filters.push('status = "published"');
  const filter = [...filters, cursor ? keysetFilter(ctx.pb, "preachedOn", cursor) : ""]
    .filter(Boolean)
    .join(" && ");
  const rows = await pbCall(() =>
    ctx.pb.collection("sermons").getList<SermonRecord>(1, size + 1, {
      filter,
      sort: "-preachedOn,-id",
      skipTotal: true,
      expand: EXPAND,
    }),
  );
  return connection(
    rows.items,
    size,
    (s) => s.preachedOn,
    async () =>
      (
        await pbCall(() =>
          ctx.pb.collection("sermons").getList(1, 1, { filter: filters.join(" && "), fields: "id" }),
        )
      ).totalItems,
  );
}

function validateSeries(input: SermonSeriesInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const description =
    input.description == null
      ? undefined
      : v.text("description", input.description, { max: LIMITS.seriesDescriptionMax });
  v.done();
  return defined({ title, description });
}

function validateSpeaker(input: SpeakerInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: LIMITS.nameMax });
  const bio = input.bio == null ? undefined : v.text("bio", input.bio, { max: LIMITS.speakerBioMax });
  v.done();
  return defined({ name, bio });
}

function validateSermon(input: SermonInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.nameMax });
  const summary =
    input.summary == null ? undefined : v.text("summary", input.summary, { max: LIMITS.summaryMax });
  const notes = input.notes ?? undefined;
  if (notes !== undefined && notes.length > LIMITS.markdownMax)
    v.add("notes", "too_long", `Use at most ${LIMITS.markdownMax} characters.`);
  let scripture: Record<string, string> = {};
  if (input.scripture != null) {
    const text = v.text("scripture", input.scripture, { max: LIMITS.scriptureMax });
    const parsed = parseScripture(text);
    if (text && !parsed.osis)
      v.add("scripture", "not_scripture", "Write Bible references like John 3:16-21; Rom 8.");
    scripture = { scripture: text, scriptureOsis: parsed.osis, scriptureBooks: booksField(parsed.books) };
  }
  let preachedOn: string | undefined;
  if (input.preachedOn != null && input.preachedOn !== "") {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.preachedOn);
    const date = day ? new Date(`${input.preachedOn}T00:00:00.000Z`) : null;
    if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== input.preachedOn)
      v.add("preachedOn", "invalid_date", "Use a valid date.");
    else preachedOn = `${input.preachedOn} 00:00:00.000Z`;
  }
  let videoUrl: string | undefined;
  if (input.videoUrl != null) {
    const text = v.text("videoUrl", input.videoUrl, { max: LIMITS.videoUrlMax });
    const video = text ? parseVideoUrl(text) : null;
    if (text && !video) v.add("videoUrl", "invalid_video_url", "Use a YouTube or Vimeo link.");
    videoUrl = video?.url ?? "";
  }
  const speakerIds = input.speakerIds ?? undefined;
  if (speakerIds && speakerIds.length > 10) v.add("speakerIds", "too_many", "At most 10 speakers.");
  v.done();
  return defined({
    title,
    summary,
    notes,
    ...scripture,
    preachedOn,
    videoUrl,
    series: input.seriesId === undefined ? undefined : (input.seriesId ?? ""),
    speakers: speakerIds ? [...new Set(speakerIds)] : undefined,
  });
}

const titleFromFilename = (name: string) =>
  name
    .replace(/\.[a-z0-9]{1,5}$/i, "")
    .replace(/[_-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, LIMITS.nameMax) || "Untitled sermon";

/**
 * Hand a finished tus upload to PocketBase as the caller, streamed from disk chunk by chunk
 * (pocketbase/stream-upload.ts): the gateway never holds the audio in memory.
 */
async function attachAudio(ctx: GatewayContext, sermonId: string, uploadId: string): Promise<SermonRecord> {
  const viewer = await requireViewer(ctx);
  const staged = await ctx.audioUploads.staged(uploadId, viewer.id);
  if (!staged)
    throw badUserInput({
      uploadId: {
        code: "upload_not_found",
        message: "The upload is not finished or no longer exists. Upload the file again.",
      },
    });
  // The sermon must be one the caller may change before anything is read or stored.
  await requireSermon(ctx, sermonId);
  const check = await checkAudioFile(staged.path, {
    size: staged.size,
    maxBytes: LIMITS.audioMaxBytes,
    declaredType: staged.filetype,
    filename: staged.filename,
  });
  if (!check.ok) {
    await ctx.audioUploads.remove(uploadId);
    if (check.reason === "size") throw payloadTooLarge(LIMITS.audioMaxBytes);
    throw unsupportedFileType(AUDIO_TYPES_SHOWN);
  }
  let durationSeconds = 0;
  try {
    const metadata = await parseFile(staged.path, { duration: false, skipCovers: true });
    durationSeconds = Math.round((metadata.format.duration ?? 0) * 10) / 10;
  } catch {
    // The bytes looked like audio but the parser could not read a length: keep it, without a duration.
  }
  const extension = check.format === "m4a" ? "m4a" : check.format;
  const name = `${
    titleFromFilename(staged.filename)
      .replace(/[^A-Za-z0-9 ]+/g, "")
      .replace(/\s+/g, "-")
      .slice(0, 80) || "sermon"
  }.${extension}`;
  await writeAsCaller(() =>
    streamRecordUpdate(
      ctx.config.pbUrl,
      ctx.pb.authStore.token || null,
      "sermons",
      sermonId,
      { audioSize: staged.size, audioType: check.mime, durationSeconds, updatedBy: viewer.id },
      { field: "audio", path: staged.path, name, type: check.mime, size: staged.size },
    ),
  );
  const updated = await requireSermon(ctx, sermonId);
  await ctx.audioUploads.remove(uploadId);
  return updated;
}

const isPdf = (bytes: Uint8Array) =>
  bytes.length > 5 && String.fromCharCode(...bytes.subarray(0, 5)) === "%PDF-";

async function neighbour(
  ctx: GatewayContext,
  s: SermonRecord,
  direction: "previous" | "next",
): Promise<SermonRecord | null> {
  if (!s.series || !s.preachedOn) return null;
  const filter = ctx.pb.filter(
    direction === "previous"
      ? 'status = "published" && series = {:series} && (preachedOn < {:d} || (preachedOn = {:d} && id < {:id}))'
      : 'status = "published" && series = {:series} && (preachedOn > {:d} || (preachedOn = {:d} && id > {:id}))',
    { series: s.series, d: s.preachedOn, id: s.id },
  );
  const rows = await pbCall(() =>
    ctx.pb.collection("sermons").getList<SermonRecord>(1, 1, {
      filter,
      sort: direction === "previous" ? "-preachedOn,-id" : "preachedOn,id",
      skipTotal: true,
      expand: EXPAND,
    }),
  );
  return rows.items[0] ?? null;
}

export const sermonFileUrl = (s: Pick<SermonRecord, "id">, name: string) =>
  `/files/sermons/${s.id}/${encodeURIComponent(name)}`;
export const seriesArtworkUrl = (s: Pick<SermonSeriesRecord, "id" | "artwork">, thumb = "400x400") =>
  s.artwork ? `/files/sermon_series/${s.id}/${encodeURIComponent(s.artwork)}?thumb=${thumb}` : null;

export const sermonsResolvers: Resolvers = {
  Query: {
    sermons: (_, args, ctx) => listSermons(ctx, args),
    sermon: (_, { slug }, ctx) => findSermon(ctx, ctx.pb.filter("slug = {:slug}", { slug })),
    sermonById: (_, { id }, ctx) => findSermon(ctx, ctx.pb.filter("id = {:id}", { id })),
    async latestSermon(_, __, ctx) {
      // On every home page: for all but sermon staff (who also read drafts) the rule's own list of
      // published sermons, without a filter, so a church with no sermons yet is not answered after
      // PocketBase's per-IP random delay for empty filtered lists.
      const staff = can(await ctx.viewer(), "manageSermons");
      const rows = await pbCall(() =>
        ctx.pb.collection("sermons").getList<SermonRecord>(1, 1, {
          filter: staff ? 'status = "published"' : "",
          sort: "-preachedOn,-id",
          skipTotal: true,
          expand: EXPAND,
        }),
      );
      return rows.items[0] ?? null;
    },
    async sermonSeries(_, { slug }, ctx) {
      const rows = await pbCall(() =>
        ctx.pb.collection("sermon_series").getList<SermonSeriesRecord>(1, 1, {
          filter: ctx.pb.filter("slug = {:slug}", { slug }),
          skipTotal: true,
        }),
      );
      return rows.items[0] ?? null;
    },
    sermonSeriesList: async (_, __, ctx) =>
      (
        await pbCall(() =>
          ctx.pb
            .collection("sermon_series")
            .getList<SermonSeriesRecord>(1, 100, { sort: "-created,-id", skipTotal: true }),
        )
      ).items,
    async speaker(_, { slug }, ctx) {
      const rows = await pbCall(() =>
        ctx.pb.collection("speakers").getList<SpeakerRecord>(1, 1, {
          filter: ctx.pb.filter("slug = {:slug}", { slug }),
          skipTotal: true,
        }),
      );
      return rows.items[0] ?? null;
    },
    speakers: async (_, __, ctx) =>
      (
        await pbCall(() =>
          ctx.pb.collection("speakers").getList<SpeakerRecord>(1, 100, { sort: "name,id", skipTotal: true }),
        )
      ).items,
    async bibleBooks(_, { locale, withSermons }, ctx) {
      let books = BIBLE_BOOKS;
      if (withSermons) {
        // Only the field the filter needs, of every published sermon: unfiltered for a caller who reads
        // no drafts (the rules keep them to published ones), as in sermonYears.
        const published = readsSermonDrafts(await ctx.viewer()) ? { filter: 'status = "published"' } : {};
        const rows = await pbCall(() =>
          ctx.pb
            .collection("sermons")
            .getFullList<SermonRecord>({ ...published, fields: "scriptureBooks", batch: 1000 }),
        );
        const used = new Set(rows.flatMap((r) => (r.scriptureBooks ?? "").split("|").filter(Boolean)));
        books = books.filter((book) => used.has(book.osis));
      }
      return books.map((book) => ({ osis: book.osis, name: bookName(book.osis, localeOf(locale)) }));
    },
    async sermonYears(_, __, ctx) {
      // The newest and the oldest dated published sermon bound the years (two calls, whatever the
      // count). The newest is read without a filter for a caller who reads no drafts (undated ones
      // sort last); only when there is one is the oldest asked for with `preachedOn != ""`, a filter
      // that then cannot come back empty (PocketBase's random delay for empty filtered lists).
      const published = readsSermonDrafts(await ctx.viewer()) ? 'status = "published"' : "";
      const read = (filter: string, sort: string) =>
        pbCall(() =>
          ctx.pb.collection("sermons").getList<SermonRecord>(1, 1, {
            filter,
            sort,
            fields: "preachedOn",
            skipTotal: true,
          }),
        );
      const last = (await read(published, "-preachedOn")).items[0]?.preachedOn;
      if (!last) return [];
      const first = (await read([published, 'preachedOn != ""'].filter(Boolean).join(" && "), "preachedOn"))
        .items[0]?.preachedOn;
      if (!first) return [];
      const years: number[] = [];
      for (let y = Number(last.slice(0, 4)); y >= Number(first.slice(0, 4)); y--) years.push(y);
      return years;
    },
    parseScripture: (_, { text, locale }) => {
      if (text.length > LIMITS.scriptureMax)
        throw badUserInput({
          text: { code: "too_long", message: `Use at most ${LIMITS.scriptureMax} characters.` },
        });
      const osis = parseScripture(text).osis;
      return osis
        .split(",")
        .filter(Boolean)
        .map((range) => ({
          osis: range,
          text: formatRange(range, localeOf(locale)),
          book: range.split(".")[0]!,
        }));
    },
  },

  Mutation: {
    async createSermonSeries(_, { input }, ctx) {
      await requireViewer(ctx);
      const data = validateSeries(input);
      const slug = await chooseSlug(ctx.pb, "sermon_series", input.slug, String(data.title));
      return writeAsCaller(() =>
        ctx.pb.collection("sermon_series").create<SermonSeriesRecord>({ description: "", ...data, slug }),
      );
    },
    async updateSermonSeries(_, { id, input }, ctx) {
      await requireViewer(ctx);
      const data = validateSeries(input);
      const current = await pbCall(() => ctx.pb.collection("sermon_series").getOne<SermonSeriesRecord>(id));
      const slug =
        !input.slug || input.slug === current.slug
          ? current.slug
          : await chooseSlug(ctx.pb, "sermon_series", input.slug, String(data.title), id);
      return writeAsCaller(() =>
        ctx.pb.collection("sermon_series").update<SermonSeriesRecord>(id, { ...data, slug }),
      );
    },
    async setSermonSeriesArtwork(_, { id, file }, ctx) {
      await requireViewer(ctx);
      const artwork = await checkedImageFile(file, "artwork");
      return writeAsCaller(() =>
        ctx.pb.collection("sermon_series").update<SermonSeriesRecord>(id, { artwork }),
      );
    },
    async deleteSermonSeries(_, { id }, ctx) {
      await requireViewer(ctx);
      await writeAsCaller(() => ctx.pb.collection("sermon_series").delete(id));
      return true;
    },
    async createSpeaker(_, { input }, ctx) {
      await requireViewer(ctx);
      const data = validateSpeaker(input);
      const slug = await chooseSlug(ctx.pb, "speakers", input.slug, String(data.name));
      return writeAsCaller(() =>
        ctx.pb.collection("speakers").create<SpeakerRecord>({ bio: "", ...data, slug }),
      );
    },
    async updateSpeaker(_, { id, input }, ctx) {
      await requireViewer(ctx);
      const data = validateSpeaker(input);
      const current = await pbCall(() => ctx.pb.collection("speakers").getOne<SpeakerRecord>(id));
      const slug =
        !input.slug || input.slug === current.slug
          ? current.slug
          : await chooseSlug(ctx.pb, "speakers", input.slug, String(data.name), id);
      return writeAsCaller(() => ctx.pb.collection("speakers").update<SpeakerRecord>(id, { ...data, slug }));
    },
    async setSpeakerPhoto(_, { id, file }, ctx) {
      await requireViewer(ctx);
      const photo = await checkedImageFile(file, "photo");
      return writeAsCaller(() => ctx.pb.collection("speakers").update<SpeakerRecord>(id, { photo }));
    },
    async deleteSpeaker(_, { id }, ctx) {
      await requireViewer(ctx);
      await writeAsCaller(() => ctx.pb.collection("speakers").delete(id));
      return true;
    },

    async createSermon(_, { input }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validateSermon(input);
      const slug = await chooseSlug(ctx.pb, "sermons", input.slug, String(data.title));
      return writeAsCaller(() =>
        ctx.pb.collection("sermons").create<SermonRecord>(
          {
            notes: "",
            preachedOn: `${new Date().toISOString().slice(0, 10)} 00:00:00.000Z`,
            ...data,
            slug,
            status: "draft",
            updatedBy: viewer.id,
          },
          { expand: EXPAND },
        ),
      );
    },
    async updateSermon(_, { id, input, expectedRevision }, ctx) {
      const viewer = await requireViewer(ctx);
      const data = validateSermon(input);
      const current = await requireSermon(ctx, id);
      const { revision } = current;
      if (expectedRevision != null && expectedRevision !== revision)
        throw staleRevision({
          revision,
          title: current.title,
          body: current.notes,
          updated: current.updated,
        });
      // A draft's address follows its title until the editor sets one; an address that was ever public
      // (links to it may exist) never moves by itself — the post editor's rule.
      const slug =
        input.slug === current.slug ||
        (!input.slug && (current.status === "published" || !!current.publishedAt))
          ? current.slug
          : !input.slug && slugify(String(data.title)) === current.slug
            ? current.slug
            : await chooseSlug(ctx.pb, "sermons", input.slug, String(data.title), id);
      return writeAsCaller(() =>
        ctx.pb
          .collection("sermons")
          .update<SermonRecord>(
            id,
            { ...data, slug, revision: revision + 1, updatedBy: viewer.id },
            { expand: EXPAND },
          ),
      );
    },
    async publishSermon(_, { id }, ctx) {
      await requireViewer(ctx);
      const current = await requireSermon(ctx, id);
      return writeAsCaller(() =>
        ctx.pb
          .collection("sermons")
          .update<SermonRecord>(
            id,
            { status: "published", publishedAt: current.publishedAt || pocketBaseNow() },
            { expand: EXPAND },
          ),
      );
    },
    async unpublishSermon(_, { id }, ctx) {
      await requireViewer(ctx);
      await requireSermon(ctx, id);
      return writeAsCaller(() =>
        ctx.pb.collection("sermons").update<SermonRecord>(id, { status: "draft" }, { expand: EXPAND }),
      );
    },
    async deleteSermon(_, { id }, ctx) {
      await requireViewer(ctx);
      await requireSermon(ctx, id);
      await writeAsCaller(() => ctx.pb.collection("sermons").delete(id));
      return true;
    },
    attachSermonAudio: (_, { sermonId, uploadId }, ctx) => attachAudio(ctx, sermonId, uploadId),
    async createSermonsFromUploads(_, { uploadIds }, ctx) {
      const viewer = await requireViewer(ctx);
      if (uploadIds.length > 20)
        throw badUserInput({ uploadIds: { code: "too_many", message: "At most 20 files at once." } });
      const created: SermonRecord[] = [];
      for (const uploadId of uploadIds) {
        const staged = await ctx.audioUploads.staged(uploadId, viewer.id);
        if (!staged)
          throw badUserInput({
            uploadIds: {
              code: "upload_not_found",
              message: "An upload is not finished or no longer exists.",
            },
          });
        const title = titleFromFilename(staged.filename);
        const slug = await chooseSlug(ctx.pb, "sermons", null, title);
        const draft = await writeAsCaller(() =>
          ctx.pb.collection("sermons").create<SermonRecord>({
            title,
            slug,
            notes: "",
            status: "draft",
            preachedOn: `${new Date().toISOString().slice(0, 10)} 00:00:00.000Z`,
            updatedBy: viewer.id,
          }),
        );
        try {
          created.push(await attachAudio(ctx, draft.id, uploadId));
        } catch (error) {
          // A refused file leaves no empty draft behind.
          await ctx.pb
            .collection("sermons")
            .delete(draft.id)
            .catch(() => undefined);
          throw error;
        }
      }
      return created;
    },
    async addSermonAttachment(_, { sermonId, file }, ctx) {
      await requireViewer(ctx);
      if (file.size > LIMITS.documentMaxBytes) throw payloadTooLarge(LIMITS.documentMaxBytes);
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (file.type !== "application/pdf" || !isPdf(bytes)) throw unsupportedFileType(["PDF"]);
      const current = await requireSermon(ctx, sermonId);
      if ((current.attachments ?? []).length >= LIMITS.sermonAttachmentsMax) {
        throw badUserInput({
          file: { code: "too_many", message: `At most ${LIMITS.sermonAttachmentsMax} attachments.` },
        });
      }
      const upload = new File([bytes], (file.name || "handout.pdf").slice(-200), { type: "application/pdf" });
      return writeAsCaller(() =>
        ctx.pb
          .collection("sermons")
          .update<SermonRecord>(sermonId, { "attachments+": upload }, { expand: EXPAND }),
      );
    },
    async removeSermonAttachment(_, { sermonId, filename }, ctx) {
      await requireViewer(ctx);
      await requireSermon(ctx, sermonId);
      return writeAsCaller(() =>
        ctx.pb
          .collection("sermons")
          .update<SermonRecord>(sermonId, { "attachments-": [filename] }, { expand: EXPAND }),
      );
    },
  },

  Sermon: {
    can: async (_, __, ctx) => sermonCan(await ctx.viewer()),
    path: (s) => `/sermons/${s.slug}`,
    url: (s, _, ctx) => `${new URL(ctx.config.publicUrl).origin}/sermons/${s.slug}`,
    series: (s) => s.expand?.series ?? null,
    speakers: (s) => s.expand?.speakers ?? [],
    preachedOn: (s) => fromPocketBaseDateOrNull(s.preachedOn),
    scripture: (s) => s.scripture ?? "",
    passages: (s, { locale }) =>
      (s.scriptureOsis ?? "")
        .split(",")
        .filter(Boolean)
        .map((range) => ({
          osis: range,
          text: formatRange(range, localeOf(locale)),
          book: range.split(".")[0]!,
        })),
    scriptureText: (s, { locale }) => formatScripture(s.scriptureOsis ?? "", localeOf(locale)),
    summary: (s) => s.summary ?? "",
    notes: (s) => s.notes ?? "",
    notesHtml: (s, _, ctx) => renderBody(ctx, `sermons:${s.id}:${s.updated}`, s.notes ?? ""),
    audio: (s, _, ctx) =>
      s.audio
        ? {
            url: `${new URL(ctx.config.publicUrl).origin}${sermonFileUrl(s, s.audio)}`,
            mimeType: s.audioType || "audio/mpeg",
            size: s.audioSize ?? 0,
            durationSeconds: s.durationSeconds || null,
          }
        : null,
    videoUrl: (s) => s.videoUrl ?? "",
    video: (s) => (s.videoUrl ? parseVideoUrl(s.videoUrl) : null),
    attachments: (s, _, ctx) =>
      (s.attachments ?? []).map((name) => ({
        url: `${new URL(ctx.config.publicUrl).origin}${sermonFileUrl(s, name)}`,
        filename: name,
      })),
    status: (s) => (s.status === "published" ? "published" : "draft"),
    publishedAt: (s) => fromPocketBaseDateOrNull(s.publishedAt),
    previousInSeries: (s, _, ctx) => neighbour(ctx, s, "previous"),
    nextInSeries: (s, _, ctx) => neighbour(ctx, s, "next"),
    created: (s) => fromPocketBaseDate(s.created),
    updated: (s) => fromPocketBaseDate(s.updated),
  },
  SermonSeries: {
    can: async (_, __, ctx) => sermonCan(await ctx.viewer()),
    path: (s) => `/series/${s.slug}`,
    description: (s) => s.description ?? "",
    artworkUrl: (s) => seriesArtworkUrl(s),
    artworkLargeUrl: (s) => seriesArtworkUrl(s, "1400x1400"),
    sermons: (s, { first, after }, ctx) => listSermons(ctx, { first, after, seriesId: s.id }),
    feedUrl: (s, _, ctx) => `${new URL(ctx.config.publicUrl).origin}/feeds/series/${s.slug}.xml`,
    updated: (s) => fromPocketBaseDate(s.updated),
  },
  Speaker: {
    can: async (_, __, ctx) => sermonCan(await ctx.viewer()),
    path: (s) => `/speakers/${s.slug}`,
    bio: (s) => s.bio ?? "",
    photoUrl: (s) =>
      s.photo ? `/files/speakers/${s.id}/${encodeURIComponent(s.photo)}?thumb=400x400` : null,
    sermons: (s, { first, after }, ctx) => listSermons(ctx, { first, after, speakerId: s.id }),
    updated: (s) => fromPocketBaseDate(s.updated),
  },
};
