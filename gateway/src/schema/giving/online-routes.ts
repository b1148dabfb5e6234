import type { IncomingMessage, ServerResponse } from "node:http";
import type { FeatureHttp } from "../../http/route-table.ts";
import { titled } from "../../http/page-meta.ts";
import { WebhookSignatureError } from "../../payments/provider.ts";
import { handleProviderEvent } from "./online-records.ts";

// Online giving's entry in the gateway's route table: the /give pages' titles, and the payment provider's
// webhook, POST /giving/webhooks/<provider>. The signature is checked over the body exactly as it arrived (the raw
// bytes: parsing and re-serialising JSON would change them), then the event is recorded once
// (online-records.ts). Answers: 200 handled (or already handled before), 400 a bad signature or body
// (nothing written), 409 the same event is being handled by another delivery right now and 500 a failure
// (the provider retries both), 404 when online giving is not set up.

export const GIVING_WEBHOOK_PREFIX = "/giving/webhooks/";

/** Provider events are a few kilobytes; anything far larger is not one. */
const MAX_EVENT_BYTES = 512 * 1024;

/** The request's body as bytes, or null when it is larger than MAX_EVENT_BYTES. */
async function rawBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_EVENT_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, headers: Record<string, string>, status: number, body: object): void {
  res.writeHead(status, { ...headers, "content-type": "application/json" }).end(JSON.stringify(body));
}

export const givingOnlineHttp: FeatureHttp = {
  pages: [
    [/^\/give$/, titled("page.give")],
    [/^\/give\/thanks$/, titled("page.giveThanks", { noindex: true })],
  ],
  routes: ({ services, headers }) => [
    {
      match: (url) => url.pathname.startsWith(GIVING_WEBHOOK_PREFIX),
      async handle(req, res, url): Promise<void> {
        const provider = services.payments;
        if (!provider || url.pathname !== `${GIVING_WEBHOOK_PREFIX}${provider.name}`)
          return answer(res, headers, 404, { error: "Online giving is not set up." });
        if (req.method !== "POST") {
          res.writeHead(405, { ...headers, allow: "POST" }).end();
          return;
        }
        const body = await rawBody(req);
        if (!body) return answer(res, headers, 413, { error: "The event is too large." });
        let event;
        try {
          event = provider.parseWebhook(body, req.headers);
        } catch (error) {
          if (error instanceof WebhookSignatureError)
            return answer(res, headers, 400, { error: "The signature does not verify." });
          throw error;
        }
        try {
          const settings = await services.publicSettings.get();
          const outcome = await handleProviderEvent(await services.system.get(), event, settings.timezone);
          if (outcome === "busy")
            return answer(res, headers, 409, { error: "This event is being handled; try again later." });
          return answer(res, headers, 200, { received: true, duplicate: outcome === "duplicate" });
        } catch (error) {
          console.error("[giving] provider event", event.eventId, error);
          return answer(res, headers, 500, { error: "The event could not be recorded; try again later." });
        }
      },
    },
  ],
};
