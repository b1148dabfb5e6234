import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { defaultClientConditions, defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { precompress } from "./vite-precompress.ts";
import { icuCatalogs } from "./vite-icu.ts";

// In development the Vite server proxies the gateway's routes, so the browser sees one origin as in
// production (cookies, CSRF and CSP behave the same).
const gateway = process.env.FLOCK_GATEWAY_URL ?? "http://127.0.0.1:3001";

/**
 * React Router's package exports only its development build to bundlers (the same code with its
 * developer warnings switched on); the build gets the production one beside it (`npm run dev` keeps
 * the warnings).
 */
function reactRouterProduction(): Plugin {
  const file = join(
    dirname(createRequire(import.meta.url).resolve("react-router/package.json")),
    "dist/production/index.mjs",
  );
  return {
    name: "flock:react-router-production",
    apply: "build",
    enforce: "pre",
    resolveId: (source) => (source === "react-router" ? file : null),
  };
}

export default defineConfig({
  // precompress: brotli and gzip siblings of the built files, served by the gateway as they are.
  // icuCatalogs: the message catalogs precompiled (ICU MessageFormat), one chunk per area and language.
  plugins: [react(), reactRouterProduction(), icuCatalogs(), precompress()],
  resolve: {
    // "es2015": packages that publish an ES2015+ build beside an ES5 one (rxjs, under Apollo Client)
    // give the former: classes instead of tslib's helpers, 1.9 KB gzip less in every first load.
    conditions: ["es2015", ...defaultClientConditions],
  },
  build: {
    manifest: true,
    // Every browser the app supports (ES2022 target) knows <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    // Everything the first load needs in one chunk (Rolldown's "$initial": the entry's static
    // imports), instead of the six it split them into for the lazy chunks' sake: one gzip stream
    // compresses 2.9 KB better than six, and it is one request.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] } } },
    sourcemap: false,
    target: "es2022",
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      "/graphql": { target: gateway, changeOrigin: false },
      "/files": { target: gateway },
      "/uploads": { target: gateway },
      "/feeds": { target: gateway },
      "/healthz": { target: gateway },
      "/readyz": { target: gateway },
    },
  },
});
