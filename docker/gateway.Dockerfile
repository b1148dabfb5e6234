# syntax=docker/dockerfile:1
# The Flock gateway (GraphQL, files proxy, health) serving the built web app on one port.
# Build context: the repository root (see docker-compose.yml).

ARG NODE_IMAGE=node:24-slim

# --- build the web app ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS web
WORKDIR /app
# Manifests first, so that the dependency layer is cached until package*.json change.
COPY package.json package-lock.json ./
COPY gateway/package.json gateway/package.json
COPY web/package.json web/package.json
COPY shared/package.json shared/package.json
COPY scripts/typecheck/package.json scripts/typecheck/package.json
# The whole lockfile (dev dependencies: Vite and its native Rolldown binding). This stage is thrown
# away; only web/dist is kept.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY shared ./shared
COPY web ./web
RUN npm run build -w web

# --- production dependencies of the gateway only -------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY gateway/package.json gateway/package.json
COPY web/package.json web/package.json
COPY shared/package.json shared/package.json
COPY scripts/typecheck/package.json scripts/typecheck/package.json
# Only the gateway's and the shared rules' workspace dependencies, without dev tools (tsx among them:
# Node 24 runs the gateway's TypeScript itself, stripping the types), the web app's libraries or the
# root's optional PocketBase/Chromium packages.
RUN npm ci --omit=dev --workspace=gateway --workspace=shared --no-audit --no-fund \
 && npm cache clean --force

# --- runtime -------------------------------------------------------------------------------------
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    WEB_DIST=/app/web/dist
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# @flock/shared's intl-messageformat differs from the version a root dev tool (lighthouse) pins, so
# npm keeps it in the workspace's own node_modules.
COPY --from=deps /app/shared/node_modules ./shared/node_modules
COPY package.json tsconfig.json ./
COPY gateway/package.json ./gateway/package.json
COPY gateway/src ./gateway/src
# Rules shared with the web app (validation limits, slugs, messages): the @flock/shared workspace.
COPY shared/package.json ./shared/package.json
COPY shared/src ./shared/src
# The first-administrator step (scripts/ensure-admin.ts) and what it imports (the gateway's password
# policy, in gateway/src, and scripts/lib/accounts.ts; never the demo seed). CI checks this file set
# without Docker: gateway/test/docker-image.int.test.ts runs the entrypoint from exactly these COPYs.
COPY docs/API.md ./docs/API.md
COPY scripts/ensure-admin.ts ./scripts/ensure-admin.ts
COPY scripts/lib/accounts.ts ./scripts/lib/accounts.ts
COPY --from=web /app/web/dist ./web/dist
COPY docker/gateway-entrypoint.sh ./docker/gateway-entrypoint.sh
# The uploads volume's mount point (docker-compose.yml, UPLOAD_DIR): Docker copies its ownership into
# a new, empty volume, so the unprivileged user can stage uploads there.
RUN chmod 0755 ./docker/gateway-entrypoint.sh \
 && mkdir -p /var/lib/flock/uploads \
 && chown node:node /var/lib/flock/uploads
# The node image's unprivileged user; the app's files stay owned by root (read-only for it).
USER node
EXPOSE 3000
ENTRYPOINT ["/app/docker/gateway-entrypoint.sh"]
