#!/bin/sh
# What a newcomer gets from `npm start` on a given Node.js: Flock starts on a throw-away data
# directory (no demo church: the seed is tested elsewhere), /healthz and the home page answer, and
# Ctrl-C stops it cleanly; or it refuses in one sentence. CI (.ci/run) runs it with the machine's own
# Node (20 there, older than Flock supports) while the suite runs on Node 24. Needs web/dist (npm run build).
#   scripts/smoke-start.sh [path/to/node]
set -eu
cd "$(dirname "$0")/.."
node=${1:-node}
version=$("$node" --version)
data=$(mktemp -d)
log="$data/start.log"
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT INT TERM

PB_DATA_DIR="$data/pb_data" PORT=0 PB_PORT=0 FLOCK_DEMO=false "$node" --import tsx scripts/start.ts >"$log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 240); do
  url=$(sed -n 's/^ *Flock is running at \(http[^ ]*\).*/\1/p' "$log")
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "smoke-start on Node $version: refused to start, saying:"
    sed 's/^/  | /' "$log"
    # One clear sentence, no stack trace: an acceptable answer for an unsupported Node.
    if grep -q "^  Flock could not start\." "$log" && ! grep -q "^ *at " "$log"; then exit 0; fi
    exit 1
  fi
  sleep 0.5
done
[ -n "$url" ] || { echo "smoke-start on Node $version: no address after 120 s"; sed 's/^/  | /' "$log"; exit 1; }
health=$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz")
home=$(curl -s -o /dev/null -w '%{http_code}' -H 'accept: text/html' "$url/")
curl -s -H 'accept: text/html' "$url/" | grep -q '<div id="root">' || home="$home (not the app's page)"
kill -INT "$pid"
wait "$pid" && stopped=0 || stopped=$?
pid=""
echo "smoke-start on Node $version: /healthz $health, / $home, Ctrl-C exit code $stopped. It printed:"
sed -n '1,/Press Ctrl-C/p' "$log" | sed 's/^/  | /'
[ "$health" = 200 ] && [ "$home" = 200 ] && [ "$stopped" = 0 ]
