import type { IncomingMessage, ServerResponse } from "node:http";
import { ClientResponseError } from "pocketbase";
import { createUserClient } from "../../pocketbase/client.ts";
import type { UserRecord } from "../../pocketbase/records.ts";
import { readCookie } from "../../session/cookie.ts";
import type { PublicSettings } from "../../system/public-settings.ts";
import { SESSION } from "@flock/shared/limits";
import { slugify } from "@flock/shared/slug";
import { buildMyDataArchive } from "./data-export-archive.ts";
import { todayIn } from "../../pocketbase/dates.ts";

/** The "Download my data" link of /me/data: a plain GET, so the browser saves the zip itself. */
export const DATA_EXPORT_PATH = "/me/data/export.zip";

function refuse(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  code: string,
  message: string,
): void {
  res
    .writeHead(status, { ...headers, "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}

/**
 * GET /me/data/export.zip: the signed-in user's data as a zip (data.json + files/). Authenticated by
 * the session cookie only (the page links here; scripts cannot read the cookie) and built entirely
 * with the user's own token: no system reads.
 */
export async function serveDataExport(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { pbUrl: string; publicSettings: PublicSettings; headers: Record<string, string> },
): Promise<void> {
  if (req.method !== "GET") {
    res.writeHead(405, { ...deps.headers, allow: "GET" }).end();
    return;
  }
  const token = readCookie(req.headers.cookie ?? null, SESSION.cookieName);
  if (!token) return refuse(res, 401, deps.headers, "UNAUTHENTICATED", "Please sign in to continue.");
  const pb = createUserClient(deps.pbUrl, token);
  let user: UserRecord;
  try {
    user = (await pb.collection("users").authRefresh<UserRecord>({ expand: "roles" })).record;
  } catch (error) {
    if (error instanceof ClientResponseError && error.status >= 400 && error.status < 500) {
      return refuse(res, 401, deps.headers, "UNAUTHENTICATED", "Please sign in to continue.");
    }
    throw error;
  }
  const settings = await deps.publicSettings.get();
  const archive = await buildMyDataArchive(pb, user);
  const filename = `${slugify(settings.churchName)}-my-data-${todayIn(settings.timezone)}.zip`;
  res.writeHead(200, {
    ...deps.headers,
    "content-type": "application/zip",
    "content-length": String(archive.bytes.length),
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "no-store",
  });
  res.end(Buffer.from(archive.bytes.buffer, archive.bytes.byteOffset, archive.bytes.byteLength));
}
