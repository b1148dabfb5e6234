import type { IncomingMessage, ServerResponse } from "node:http";
import { readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server } from "@tus/server";
import { FileStore } from "@tus/file-store";
import { createUserClient } from "../pocketbase/client.ts";
import type { UserRecord } from "../pocketbase/records.ts";
import type { ViewerCache } from "../session/viewer-cache.ts";
import { readCookie } from "../session/cookie.ts";
import { LIMITS, SESSION } from "@flock/shared/limits";
import { mayUploadSermonAudio } from "../access/staff.ts";

/** Where the tus endpoint lives; the web app uploads sermon audio here (tus-js-client). */
export const AUDIO_UPLOAD_PATH = "/uploads/audio";
const UPLOAD_ID = /^[a-f0-9]{32}$/;
/** Unfinished or unclaimed uploads are deleted after a day. */
const EXPIRY_MS = 24 * 60 * 60 * 1000;

export interface StagedUpload {
  id: string;
  /** The file on disk: hand it on with fs.openAsBlob, never read it whole. */
  path: string;
  size: number;
  filename: string;
  filetype: string;
}

type TusRequest = { headers: Headers };
type NewUpload = Parameters<FileStore["create"]>[0];

/**
 * A FileStore that creates an upload only when it fits under the staging bound. Creations run one at
 * a time and the check happens right before the upload's files are written, so two uploads arriving
 * together cannot both take the room that is left for one (measured: three at once into room for one,
 * all three were accepted when the check ran in onUploadCreate, before the files existed).
 */
class BoundedFileStore extends FileStore {
  private readonly fits: (bytes: number) => Promise<boolean>;
  private creating: Promise<unknown> = Promise.resolve();

  constructor(
    options: ConstructorParameters<typeof FileStore>[0],
    fits: (bytes: number) => Promise<boolean>,
  ) {
    super(options);
    this.fits = fits;
  }

  override create(upload: NewUpload): Promise<NewUpload> {
    const created = this.creating.then(async () => {
      // An upload of unknown length may grow to the largest allowed.
      if (!(await this.fits(upload.size ?? LIMITS.audioMaxBytes)))
        throw {
          status_code: 507,
          body: "There is no room to stage this upload right now. Try again later.\n",
        };
      return super.create(upload);
    });
    // The next creation waits for this one, whatever its outcome.
    this.creating = created.catch(() => undefined);
    return created;
  }
}

/**
 * Resumable audio uploads (tus 1.0: @tus/server with @tus/file-store). Files are staged on disk
 * chunk by chunk as they arrive, so a 300 MB sermon never sits in gateway memory, and a dropped
 * connection resumes from the last byte received (HEAD gives the offset). Only people whose roles
 * grant manageSermons may start an upload, and only its uploader may continue, read or claim it.
 * PocketBase still decides when the audio is attached to a sermon with the caller's own token.
 */
export class AudioUploads {
  readonly directory: string;
  private readonly tus: Server;
  private readonly pbUrl: string;
  private readonly viewerCache: ViewerCache;
  private readonly maxStagedBytes: number | undefined;
  private cleanup: NodeJS.Timeout | null = null;

  /**
   * `maxStagedBytes`: the most all staged uploads together may take on disk (UPLOAD_DIR_MAX_BYTES):
   * a new upload that would not fit is refused (507) until others are attached or expire. Each
   * upload counts with the size it declared, so uploads still arriving cannot outgrow the bound.
   */
  constructor(
    pbUrl: string,
    viewerCache: ViewerCache,
    directory = join(tmpdir(), "flock-uploads"),
    maxStagedBytes?: number,
  ) {
    this.pbUrl = pbUrl;
    this.viewerCache = viewerCache;
    this.directory = directory;
    this.maxStagedBytes = maxStagedBytes;
    this.tus = new Server({
      path: AUDIO_UPLOAD_PATH,
      datastore: new BoundedFileStore(
        { directory, expirationPeriodInMilliseconds: EXPIRY_MS },
        async (bytes) => !this.maxStagedBytes || (await this.stagedBytes()) + bytes <= this.maxStagedBytes,
      ),
      maxSize: LIMITS.audioMaxBytes,
      relativeLocation: true,
      // Same origin only: the app uploads from its own pages, so no other site gets a CORS grant
      // (@tus/server answers "Access-Control-Allow-Origin: *" unless told otherwise).
      allowedOrigins: () => false,
      disableTerminationForFinishedUploads: false,
      onUploadCreate: async (req, upload) => {
        const user = await this.userOf(req);
        if (!user) throw { status_code: 401, body: "Please sign in to continue.\n" };
        if (!mayUploadSermonAudio(user)) {
          throw { status_code: 403, body: "You don't have access to this.\n" };
        }
        const declared = upload.size ?? 0;
        if (declared > LIMITS.audioMaxBytes)
          throw { status_code: 413, body: "The file is larger than 300 MB.\n" };
        const metadata = upload.metadata ?? {};
        return {
          metadata: {
            filename: String(metadata.filename ?? "audio").slice(-200),
            filetype: String(metadata.filetype ?? "").slice(0, 100),
            userId: user.id,
          },
        };
      },
      onIncomingRequest: async (req, uploadId) => {
        if (req.method === "POST" || req.method === "OPTIONS") return;
        if (!UPLOAD_ID.test(uploadId)) throw { status_code: 404, body: "Not found\n" };
        const user = await this.userOf(req);
        const upload = await this.tus.datastore.getUpload(uploadId).catch(() => null);
        // Someone else's upload looks like no upload at all.
        if (!user || !upload || upload.metadata?.userId !== user.id)
          throw { status_code: 404, body: "Not found\n" };
      },
    });
  }

  /** Bytes the staged uploads take or will take: each counts with its declared size. */
  async stagedBytes(): Promise<number> {
    const entries = await readdir(this.directory).catch(() => [] as string[]);
    let total = 0;
    for (const entry of entries) {
      const id = entry.replace(/\.json$/, "");
      if (id === entry || !UPLOAD_ID.test(id)) continue;
      const upload = await this.tus.datastore.getUpload(id).catch(() => null);
      if (upload) total += upload.size ?? upload.offset;
    }
    return total;
  }

  /** Serve the tus protocol (POST creates, HEAD tells the offset, PATCH appends, DELETE cancels). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.tus.handle(req, res);
  }

  /** Delete expired uploads every hour. */
  start(): void {
    this.cleanup ??= setInterval(
      () => void this.tus.cleanUpExpiredUploads().catch(() => undefined),
      60 * 60 * 1000,
    );
    this.cleanup.unref();
  }

  stop(): void {
    if (this.cleanup) clearInterval(this.cleanup);
    this.cleanup = null;
  }

  /** A finished upload of this user, or null (unknown, someone else's, or not complete). */
  async staged(uploadId: string, userId: string): Promise<StagedUpload | null> {
    if (!UPLOAD_ID.test(uploadId)) return null;
    const upload = await this.tus.datastore.getUpload(uploadId).catch(() => null);
    if (!upload || upload.metadata?.userId !== userId) return null;
    if (upload.size === undefined || upload.offset !== upload.size) return null;
    const path = join(this.directory, uploadId);
    const onDisk = await stat(path).catch(() => null);
    if (!onDisk || onDisk.size !== upload.size) return null;
    return {
      id: uploadId,
      path,
      size: upload.size,
      filename: String(upload.metadata.filename ?? "audio"),
      filetype: String(upload.metadata.filetype ?? ""),
    };
  }

  /** Forget a staged upload (after it was attached, or refused). */
  async remove(uploadId: string): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) return;
    await rm(join(this.directory, uploadId), { force: true });
    await rm(join(this.directory, `${uploadId}.json`), { force: true });
  }

  /** Who sends this tus request: the session cookie or a Bearer token, verified by PocketBase (cached briefly). */
  private async userOf(req: TusRequest): Promise<UserRecord | null> {
    const bearer = req.headers
      .get("authorization")
      ?.replace(/^Bearer\s+/i, "")
      .trim();
    const token = bearer || readCookie(req.headers.get("cookie"), SESSION.cookieName);
    if (!token) return null;
    const cached = this.viewerCache.get(token);
    if (cached) return cached.user;
    try {
      const auth = await createUserClient(this.pbUrl, token)
        .collection("users")
        .authRefresh<UserRecord>({ expand: "roles,person" });
      this.viewerCache.set(token, auth.record, auth.token);
      return auth.record;
    } catch {
      return null;
    }
  }
}
