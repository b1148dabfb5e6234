import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { request } from "node:http";
import { request as httpsRequest } from "node:https";
import { ClientResponseError } from "pocketbase";
import { countPocketBaseCall, startPocketBaseCall } from "./http-fetch.ts";

export interface StreamedFile {
  /** The record field, e.g. "audio". */
  field: string;
  path: string;
  name: string;
  type: string;
  size: number;
}

const quote = (value: string) => value.replace(/["\r\n\\]/g, "_");

/**
 * Update one record with a large file read from disk and written to PocketBase as it is read
 * (multipart/form-data over node:http, with backpressure), as the caller (their token).
 *
 * Why not the SDK with `fs.openAsBlob`: on Node 20.20 a file-backed Blob sent as a fetch body (also
 * inside FormData or a File) is read whole into memory before it is sent; measured +150 MB of live
 * ArrayBuffers for a 150 MB file, even with a slow receiver. A read stream piped into the request
 * keeps a few 64 KB chunks in memory at a time.
 */
export function streamRecordUpdate(
  pbUrl: string,
  token: string | null,
  collection: string,
  id: string,
  fields: Record<string, string | number>,
  file: StreamedFile,
): Promise<Record<string, unknown>> {
  const boundary = `----flock${randomBytes(12).toString("hex")}`;
  const textParts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${String(value)}\r\n`,
  );
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.name)}"\r\nContent-Type: ${quote(file.type)}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const head = Buffer.from(textParts.join("") + fileHead);
  const end = Buffer.from(tail);
  const url = new URL(
    `${pbUrl}/api/collections/${encodeURIComponent(collection)}/records/${encodeURIComponent(id)}`,
  );
  countPocketBaseCall();
  const call = startPocketBaseCall("PATCH", url.toString());
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : request;
    const req = send(
      url,
      {
        method: "PATCH",
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(head.length + file.size + end.length),
          ...(token ? { authorization: token } : {}),
          ...(call.requestId ? { "x-request-id": call.requestId } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
          } catch {
            /* not JSON: keep {} */
          }
          const status = res.statusCode ?? 0;
          call.done(status);
          if (status >= 200 && status < 300) resolve(body);
          else reject(new ClientResponseError({ url: url.toString(), status, response: body }));
        });
      },
    );
    req.on("error", (error) => {
      call.done(null);
      reject(new ClientResponseError({ url: url.toString(), status: 0, response: {}, originalError: error }));
    });
    req.write(head);
    const stream = createReadStream(file.path);
    stream.on("error", (error) => req.destroy(error));
    stream.on("end", () => req.end(end));
    stream.pipe(req, { end: false });
  });
}
