#!/bin/sh
# Flock's PocketBase container: create or update the system superuser from the environment, then
# serve on the internal network. The committed migrations (pb_migrations) are applied by `serve`;
# --automigrate=false because the schema only changes through those files.
#
# Every secret comes as VARIABLE or as VARIABLE_FILE (a file holding it: Docker or Compose secrets,
# docker/compose.secrets.yml), never both. The password never goes on a command line: `ps` on the host
# shows those to every user (pb_hooks/system-account.pb.js reads it from its file or the environment).
set -eu
# /pb in the image; also runs from an assembled copy (gateway/test/docker-image.int.test.ts).
pb=$(cd "$(dirname "$0")" && pwd)
# The internal network's address (the test of the assembled image uses a free port of its own).
listen=${PB_HTTP:-0.0.0.0:8090}

# secret_file NAME: the file holding NAME's secret, or nothing when NAME itself is set (or neither is).
secret_file() {
  eval "value=\${$1:-} file=\${$1_FILE:-}"
  if [ -n "$value" ] && [ -n "$file" ]; then
    echo "Set $1 or $1_FILE, not both." >&2
    exit 1
  fi
  if [ -n "$file" ] && [ ! -r "$file" ]; then
    echo "$1_FILE names $file, which cannot be read (is the secret mounted, and readable by uid $(id -u)?)." >&2
    exit 1
  fi
  printf '%s' "$file"
}

: "${PB_SUPERUSER_EMAIL:?PB_SUPERUSER_EMAIL is required (see .env.example)}"
password_file=$(secret_file PB_SUPERUSER_PASSWORD)
if [ -z "$password_file" ] && [ -z "${PB_SUPERUSER_PASSWORD:-}" ]; then
  echo "PB_SUPERUSER_PASSWORD or PB_SUPERUSER_PASSWORD_FILE is required (see .env.example)." >&2
  exit 1
fi
case "${PB_SUPERUSER_PASSWORD:-}" in
  change-me*) echo "PB_SUPERUSER_PASSWORD still has the placeholder from .env.example: set a long random secret." >&2; exit 1 ;;
esac

# Optional: encrypt PocketBase's stored settings (they hold the SMTP password) with a 32-character key.
# Once set, the same key is needed for every later start and for restoring a backup. PocketBase reads
# it from a variable only, so a key file is read into that variable (in this process's environment,
# not on a command line).
key_file=$(secret_file PB_ENCRYPTION_KEY)
if [ -n "$key_file" ]; then
  PB_ENCRYPTION_KEY=$(cat "$key_file")
  export PB_ENCRYPTION_KEY
fi
unset PB_ENCRYPTION_KEY_FILE
encryption=""
if [ -n "${PB_ENCRYPTION_KEY:-}" ]; then
  encryption="--encryptionEnv=PB_ENCRYPTION_KEY"
fi

# Upsert also updates the password when the secret changes.
# shellcheck disable=SC2086 # $encryption is empty or one word
"$pb/pocketbase" system-account --dir="$pb/pb_data" --hooksDir="$pb/pb_hooks" --hooksWatch=false --automigrate=false $encryption \
  -- "$PB_SUPERUSER_EMAIL" ${password_file:+"$password_file"} >/dev/null
echo "PocketBase: system superuser ${PB_SUPERUSER_EMAIL} is up to date."
# The password is not needed any more: `serve` and what it runs do not inherit it.
unset PB_SUPERUSER_PASSWORD PB_SUPERUSER_PASSWORD_FILE

# shellcheck disable=SC2086
exec "$pb/pocketbase" serve --http="$listen" --dir="$pb/pb_data" --migrationsDir="$pb/pb_migrations" --hooksDir="$pb/pb_hooks" \
  --hooksWatch=false --automigrate=false $encryption
