#!/bin/sh
# The real `docker compose` smoke test: build both images, start them with a throw-away .env and
# project name, wait until both are healthy, then check that the first administrator was created
# and can sign in, that the app, /healthz and /readyz answer, that a restart and a backup + restore
# (docker/backup.sh, docker/restore.sh) come back healthy, and stop everything (volume included).
#
#   npm run docker:smoke
#
# Without a Docker engine it says so and exits 0 (it is not a test and is not counted as one; the
# image's file set is checked without Docker by gateway/test/docker-image.int.test.ts).
# Needs internet access for the build (npm registry, GitHub releases, Docker Hub).
set -eu
cd "$(dirname "$0")/.."

if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1 || ! docker compose version >/dev/null 2>&1; then
  echo "docker-smoke: skipped (no Docker engine with the Compose plugin on this machine)."
  exit 0
fi

project="flock-smoke-$$"
port=${FLOCK_SMOKE_PORT:-39300}
work=$(mktemp -d)
admin_email="smoke.admin@flock.test"
admin_password="smoke test admin $(date +%s)"
cat >"$work/.env" <<EOF
PUBLIC_URL=http://localhost:$port
FLOCK_PUBLISH_ADDRESS=127.0.0.1
FLOCK_PUBLISH_PORT=$port
PB_SUPERUSER_EMAIL=system@flock.test
PB_SUPERUSER_PASSWORD='smoke-superuser-$(date +%s)-secret'
SMTP_HOST=smtp.invalid
SMTP_FROM=office@flock.test
FLOCK_ADMIN_EMAIL=$admin_email
FLOCK_ADMIN_PASSWORD='$admin_password'
EOF

compose() { docker compose -p "$project" --env-file "$work/.env" "$@"; }
cleanup() {
  status=$?
  if [ "$status" -ne 0 ]; then compose logs --no-color --tail=200 || true; fi
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT INT TERM

echo "docker-smoke: building and starting ($project on 127.0.0.1:$port)…"
compose up -d --build --wait --wait-timeout 180

url="http://127.0.0.1:$port"
fail() { echo "docker-smoke: FAILED: $*" >&2; exit 1; }
curl -fsS "$url/healthz" >/dev/null || fail "/healthz"
curl -fsS "$url/readyz" >/dev/null || fail "/readyz"
curl -fsS "$url/" | grep -q '<div id="root">' || fail "the app's index.html"
compose logs gateway | grep -q "\[ensure-admin\] Created the administrator $admin_email" || fail "ensure-admin did not create the administrator"
body=$(printf '{"query":"mutation($i: SignInInput!) { signIn(input: $i) { roles { name } } }","variables":{"i":{"email":"%s","password":"%s"}}}' "$admin_email" "$admin_password")
curl -fsS -H 'content-type: application/json' -H 'x-graphql-yoga-csrf: 1' -d "$body" "$url/graphql" | grep -q '"Administrator"' \
  || fail "the first administrator cannot sign in"
# A restart (the administrator exists now) comes back healthy too.
compose restart gateway >/dev/null
compose up -d --wait --wait-timeout 120 >/dev/null
compose logs gateway | grep -q "\[ensure-admin\] The account $admin_email already exists" || fail "second start"

# The backup and restore scripts, against this project (Compose reads these two variables; v2.24+).
export COMPOSE_PROJECT_NAME="$project" COMPOSE_ENV_FILES="$work/.env"
docker/backup.sh
zip=$(ls -t backups/flock-*.zip | head -n 1)
FLOCK_RESTORE_CONFIRM=yes docker/restore.sh "$zip"
rm -f "$zip"
compose up -d --wait --wait-timeout 120 >/dev/null
curl -fsS -H 'content-type: application/json' -H 'x-graphql-yoga-csrf: 1' -d "$body" "$url/graphql" | grep -q '"Administrator"' \
  || fail "the administrator cannot sign in after a backup and restore"
echo "docker-smoke: passed."
