#!/bin/sh
# Flock gateway container: first make sure the first administrator exists (FLOCK_ADMIN_EMAIL /
# FLOCK_ADMIN_PASSWORD; nothing happens when they are unset or the account exists), then run the
# gateway as PID 1 so that it receives SIGTERM from `docker compose stop` and closes cleanly.
set -eu
# /app in the image; also runs from an assembled copy (gateway/test/docker-image.int.test.ts).
cd "$(dirname "$0")/.."
# Node 24 runs the TypeScript sources as they are (type stripping): no compiler or loader in the image.
node scripts/ensure-admin.ts
exec node gateway/src/main.ts
