import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { precompress } from "./vite-precompress.ts";
import { icuCatalogs } from "./vite-icu.ts";

// In development the Vite server proxies the gateway's routes, so the browser sees one origin as in
// production (cookies, CSRF and CSP behave the same).
const gateway = process.env.FLOCK_GATEWAY_URL ?? "http://127.0.0.1:3001";

export default defineConfig({
  // precompress: brotli and gzip siblings of the built files, served by the gateway as they are.
  // icuCatalogs: the message catalogs precompiled (ICU MessageFormat), staff messages in their own chunk.
  plugins: [react(), icuCatalogs(), precompress()],
  resolve: {
    // Messages arrive precompiled (vite-icu.ts): intl-messageformat's runtime without its parser.
    alias: [
      {
        find: /^@formatjs\/icu-messageformat-parser$/,
        replacement: "@formatjs/icu-messageformat-parser/no-parser.js",
      },
    ],
  },
  build: {
    manifest: true,
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
