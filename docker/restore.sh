#!/bin/sh
# Restore a Flock backup (from docker/backup.sh, or downloaded from PocketBase's dashboard) into the
# pb_data volume. This REPLACES all current data. Usage:
#   docker/restore.sh backups/flock-20260101031500.zip
# If PB_ENCRYPTION_KEY was set when the backup was made, .env must hold the same key.
set -eu
cd "$(dirname "$0")/.."
zip=${1:?"usage: docker/restore.sh path/to/backup.zip"}
if [ ! -f "$zip" ]; then
  echo "No such file: $zip" >&2
  exit 1
fi
if command -v unzip >/dev/null 2>&1 && ! unzip -tq "$zip" >/dev/null 2>&1; then
  echo "$zip is not a readable zip file." >&2
  exit 1
fi
dir=$(cd "$(dirname "$zip")" && pwd)
file=$(basename "$zip")

if [ "${FLOCK_RESTORE_CONFIRM:-}" != "yes" ]; then
  printf 'This replaces ALL current data with %s. Type "restore" to continue: ' "$file"
  read -r answer
  [ "$answer" = "restore" ] || { echo "Cancelled."; exit 1; }
fi

docker compose stop gateway pocketbase
# A one-off PocketBase container (same image, same volume, same user) empties pb_data and unpacks the
# zip (docker/restore-data.sh, the step the restore drill in gateway/test/restore-drill.int.test.ts tests).
docker compose run --rm --no-deps -v "$dir:/restore:ro" --entrypoint /pb/restore-data.sh pocketbase \
  /pb/pb_data "/restore/$file"
docker compose up -d
echo "Restored $file. Check the site, then sign in as an administrator."
