import type { FeatureHttp } from "../../http/route-table.ts";
import { titled, type PageRoute } from "../../http/page-meta.ts";

// Serving's entry in the gateway's route table: the meta of its pages outside /me and /admin (no routes
// of their own). Both are personal (a mail link's answer, a plan one serves on): titled, never indexed,
// and nothing of the request or plan in the served HTML (the page reads it with the link's secret or
// the reader's session).
const SERVING_PAGES: PageRoute[] = [
  [/^\/serving\/answer\/[a-z0-9]{15}$/, titled("page.servingAnswer", { noindex: true })],
  [/^\/serving\/plans\/[a-z0-9]{15}$/, titled("page.servingPlan", { noindex: true })],
];

export const servingHttp: FeatureHttp = { pages: SERVING_PAGES };
