import { imageSize } from "image-size";
import type { GatewayContext } from "../../context.ts";
import { conflict, payloadTooLarge, pbCall, unsupportedFileType } from "../../errors.ts";
import type { MediaRecord, PageRecord, PostRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { connection, keysetFilter, pageArgs } from "../pagination.ts";
import { requireViewer } from "../../access/guards.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { mediaCan } from "../../access/staff.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";

const THUMBS = { ORIGINAL: "", SMALL: "320x0", MEDIUM: "800x0", LARGE: "1600x0", CARD: "400x300" } as const;

/** The stable URL stored in Markdown: relative, so it survives a change of domain. */
export const mediaUrl = (m: Pick<MediaRecord, "id" | "file">) =>
  `/files/media/${m.id}/${encodeURIComponent(m.file)}`;

function validateText(input: { alt?: string | null; caption?: string | null }) {
  const v = new Validator();
  const alt = input.alt == null ? undefined : v.text("alt", input.alt, { max: LIMITS.altMax });
  const caption =
    input.caption == null ? undefined : v.text("caption", input.caption, { max: LIMITS.captionMax });
  v.done();
  return { ...(alt !== undefined ? { alt } : {}), ...(caption !== undefined ? { caption } : {}) };
}

/** Pages and posts whose Markdown (or cover) uses the media item, read as the caller. */
async function usages(ctx: GatewayContext, id: string) {
  const inBody = ctx.pb.filter("body ~ {:id}", { id: `/${id}/` });
  const [pages, posts] = await Promise.all([
    pbCall(() => ctx.pb.collection("pages").getFullList<PageRecord>({ filter: inBody, fields: "id,title" })),
    pbCall(() =>
      ctx.pb.collection("posts").getFullList<PostRecord>({
        filter: `${inBody} || ${ctx.pb.filter("cover = {:id}", { id })}`,
        fields: "id,title",
      }),
    ),
  ]);
  return [
    ...pages.map((p) => ({ kind: "PAGE" as const, id: p.id, title: p.title })),
    ...posts.map((p) => ({ kind: "POST" as const, id: p.id, title: p.title })),
  ];
}

export const mediaResolvers: Resolvers = {
  Query: {
    async mediaLibrary(_, { first, after, search, kind }, ctx) {
      const { size, cursor } = pageArgs(first, after, 24);
      await requireViewer(ctx);
      const filters = [
        search?.trim()
          ? ctx.pb.filter("(filename ~ {:q} || alt ~ {:q} || caption ~ {:q})", {
              q: search.trim().slice(0, LIMITS.searchMax),
            })
          : "",
        kind ? ctx.pb.filter("kind = {:k}", { k: kind }) : "",
      ].filter(Boolean);
      const filter = [...filters, cursor ? keysetFilter(ctx.pb, "created", cursor) : ""]
        .filter(Boolean)
        .join(" && ");
      const rows = await pbCall(() =>
        ctx.pb
          .collection("media")
          .getList<MediaRecord>(1, size + 1, { filter, sort: "-created,-id", skipTotal: true }),
      );
      return connection(
        rows.items,
        size,
        (m) => m.created,
        async () =>
          (
            await pbCall(() =>
              ctx.pb.collection("media").getList(1, 1, { filter: filters.join(" && "), fields: "id" }),
            )
          ).totalItems,
      );
    },
    async media(_, { id }, ctx) {
      const rows = await pbCall(() =>
        ctx.pb
          .collection("media")
          .getList<MediaRecord>(1, 1, { filter: ctx.pb.filter("id = {:id}", { id }), skipTotal: true }),
      );
      return rows.items[0] ?? null;
    },
  },
  Mutation: {
    async uploadMedia(_, { file, alt, caption }, ctx) {
      const viewer = await requireViewer(ctx);
      const text = validateText({ alt, caption });
      const isImage = (LIMITS.imageMimeTypes as readonly string[]).includes(file.type);
      const isDocument = (LIMITS.documentMimeTypes as readonly string[]).includes(file.type);
      if (!isImage && !isDocument) throw unsupportedFileType(["JPEG", "PNG", "WebP", "GIF", "PDF"]);
      const limit = isImage ? LIMITS.imageMaxBytes : LIMITS.documentMaxBytes;
      if (file.size > limit) throw payloadTooLarge(limit);
      const bytes = new Uint8Array(await file.arrayBuffer());
      let dimensions: { width: number; height: number } = { width: 0, height: 0 };
      if (isImage) {
        try {
          const measured = imageSize(bytes);
          dimensions = { width: measured.width ?? 0, height: measured.height ?? 0 };
        } catch {
          // Not really an image of the type it claims: refuse rather than store it.
          throw unsupportedFileType(["JPEG", "PNG", "WebP", "GIF", "PDF"]);
        }
      }
      const name = (file.name || "upload").slice(-200);
      // Yoga's File is not a Blob on Node 20 and the SDK would silently drop it: copy into a native File.
      const upload = new File([bytes], name, { type: file.type });
      return writeAsCaller(() =>
        ctx.pb.collection("media").create<MediaRecord>({
          file: upload,
          kind: isImage ? "image" : "document",
          filename: name,
          mimeType: file.type,
          size: file.size,
          ...dimensions,
          ...text,
          uploadedBy: viewer.id,
        }),
      );
    },
    async updateMedia(_, { id, input }, ctx) {
      await requireViewer(ctx);
      const text = validateText(input);
      return writeAsCaller(() => ctx.pb.collection("media").update<MediaRecord>(id, text));
    },
    async deleteMedia(_, { id }, ctx) {
      await requireViewer(ctx);
      const used = await usages(ctx, id);
      if (used.length)
        throw conflict(
          `This file is used in: ${used.map((u) => u.title).join(", ")}. Remove it there first.`,
        );
      await writeAsCaller(() => ctx.pb.collection("media").delete(id));
      return true;
    },
  },
  Media: {
    url: (m, _, ctx) => `${new URL(ctx.config.publicUrl).origin}${mediaUrl(m)}`,
    path: (m) => mediaUrl(m),
    imageUrl: (m, { size }, ctx) => {
      const thumb = m.kind === "image" ? THUMBS[size ?? "MEDIUM"] : "";
      return `${new URL(ctx.config.publicUrl).origin}${mediaUrl(m)}${thumb ? `?thumb=${thumb}` : ""}`;
    },
    filename: (m) => m.filename || m.file,
    mimeType: (m) => m.mimeType ?? "",
    alt: (m) => m.alt ?? "",
    caption: (m) => m.caption ?? "",
    width: (m) => m.width || null,
    height: (m) => m.height || null,
    size: (m) => m.size ?? 0,
    created: (m) => fromPocketBaseDate(m.created),
    usedIn: (m, _, ctx) => usages(ctx, m.id),
    can: async (m, _, ctx) => mediaCan(await ctx.viewer(), m),
  },
};
