import type { IncomingMessage, ServerResponse } from "node:http";
import type PocketBase from "pocketbase";
import type { GatewayConfig } from "../config.ts";
import type { GatewayServices } from "../context.ts";
import type { PageRoute } from "./page-meta.ts";

/** One entry of the gateway's routing table. */
export interface Route {
  match(url: URL): boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | void;
}

/** What server.ts lends a feature's routes: its services and the ways every answer is written. */
export interface RouteKit {
  config: GatewayConfig;
  services: GatewayServices;
  /** The security headers every answer carries. */
  headers: Record<string, string>;
  /** The app's public origin, for absolute URLs (feeds, calendars). */
  publicOrigin: string;
  /** A PocketBase client without a token: what anyone may read (feeds, page meta). */
  guest(): PocketBase;
  /** A generated document (feed, sitemap) with an ETag and Last-Modified from its bytes: 304 when unchanged. */
  serveDocument(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    type: string,
    body: Promise<string>,
  ): Promise<void>;
}

/**
 * A feature's HTTP surface outside GraphQL, declared in one entry (schema/<feature>/routes.ts) and
 * composed by server.ts (schema/routes.ts lists the entries): http/ never reaches into a feature.
 */
export interface FeatureHttp {
  /** Its routes (feeds, downloads, uploads), tried after the gateway's own and before the app's pages. */
  routes?(kit: RouteKit): Route[];
  /** The served HTML's title, meta and text for its pages (http/route-meta.ts#metaForPath). */
  pages?: PageRoute[];
}
