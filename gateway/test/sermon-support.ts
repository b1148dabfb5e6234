import { TUS_VERSION } from "./tus-version.ts";

/** A minimal tus 1.0 client over fetch (what tus-js-client does in the browser). */
export class TusClient {
  constructor(
    private readonly base: string,
    private readonly token: string | null,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      "tus-resumable": TUS_VERSION,
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...extra,
    };
  }

  /** POST: announce an upload; returns the response (Location holds its URL). */
  create(size: number, filename: string, filetype: string): Promise<Response> {
    const metadata = `filename ${Buffer.from(filename).toString("base64")},filetype ${Buffer.from(filetype).toString("base64")}`;
    return fetch(`${this.base}/uploads/audio`, {
      method: "POST",
      headers: this.headers({ "upload-length": String(size), "upload-metadata": metadata }),
    });
  }

  patch(location: string, offset: number, bytes: Uint8Array): Promise<Response> {
    return fetch(new URL(location, this.base), {
      method: "PATCH",
      headers: this.headers({
        "upload-offset": String(offset),
        "content-type": "application/offset+octet-stream",
      }),
      body: new Uint8Array(bytes),
    });
  }

  head(location: string): Promise<Response> {
    return fetch(new URL(location, this.base), { method: "HEAD", headers: this.headers() });
  }

  /** Create and send a whole file; returns the upload id. */
  async upload(
    bytes: Uint8Array,
    filename: string,
    filetype: string,
    chunk = 5 * 1024 * 1024,
  ): Promise<string> {
    const created = await this.create(bytes.length, filename, filetype);
    if (created.status !== 201) throw new Error(`tus create: ${created.status} ${await created.text()}`);
    const location = created.headers.get("location")!;
    for (let offset = 0; offset < bytes.length; offset += chunk) {
      const sent = await this.patch(location, offset, bytes.subarray(offset, offset + chunk));
      if (sent.status !== 204) throw new Error(`tus patch: ${sent.status} ${await sent.text()}`);
    }
    return uploadIdOf(location);
  }
}

export const uploadIdOf = (location: string) => location.split("/").pop()!;
