import type { FeatureHttp } from "../../http/route-table.ts";
import { DATA_EXPORT_PATH, serveDataExport } from "./data-export.ts";

// People's entry in the gateway's route table: the "my data" zip.

export const peopleHttp: FeatureHttp = {
  routes: ({ config, services, headers }) => [
    {
      match: (url) => url.pathname === DATA_EXPORT_PATH,
      handle: (req, res) =>
        serveDataExport(req, res, { pbUrl: config.pbUrl, publicSettings: services.publicSettings, headers }),
    },
  ],
};
