#!/bin/sh
# Flock's PocketBase container: create or update the system superuser from the environment, then
# serve on the internal network. The committed migrations (pb_migrations) are applied by `serve`;
# --automigrate=false because the schema only changes through those files.
set -eu

: "${PB_SUPERUSER_EMAIL:?PB_SUPERUSER_EMAIL is required (see .env.example)}"
: "${PB_SUPERUSER_PASSWORD:?PB_SUPERUSER_PASSWORD is required (see .env.example)}"
case "$PB_SUPERUSER_PASSWORD" in
  change-me*) echo "PB_SUPERUSER_PASSWORD still has the placeholder from .env.example: set a long random secret." >&2; exit 1 ;;
esac

# Optional: encrypt PocketBase's stored settings (they hold the SMTP password) with a 32-character key.
# Once set, the same key is needed for every later start and for restoring a backup.
encryption=""
if [ -n "${PB_ENCRYPTION_KEY:-}" ]; then
  encryption="--encryptionEnv=PB_ENCRYPTION_KEY"
fi

# `--` ends the flags, so that a password starting with "-" is not read as one. Upsert also updates
# the password when PB_SUPERUSER_PASSWORD changes.
# shellcheck disable=SC2086 # $encryption is empty or one word
/pb/pocketbase superuser upsert --dir=/pb/pb_data --migrationsDir=/pb/pb_migrations --automigrate=false $encryption \
  -- "$PB_SUPERUSER_EMAIL" "$PB_SUPERUSER_PASSWORD" >/dev/null
echo "PocketBase: system superuser ${PB_SUPERUSER_EMAIL} is up to date."

# shellcheck disable=SC2086
exec /pb/pocketbase serve --http=0.0.0.0:8090 --dir=/pb/pb_data --migrationsDir=/pb/pb_migrations --hooksDir=/pb/pb_hooks --hooksWatch=false --automigrate=false $encryption
