#!/bin/sh
# Replace a PocketBase data folder with the contents of a backup zip: checks the zip first, then
# empties the folder and unpacks. PocketBase must be stopped. docker/restore.sh runs it inside a
# one-off PocketBase container (/pb/restore-data.sh); gateway/test/restore-drill.int.test.ts runs this
# same file in the restore drill.
#   restore-data.sh <pb_data folder> <backup.zip>
set -eu
data=${1:?"usage: restore-data.sh <pb_data folder> <backup.zip>"}
zip=${2:?"usage: restore-data.sh <pb_data folder> <backup.zip>"}
[ -d "$data" ] || { echo "No such folder: $data" >&2; exit 1; }
unzip -tq "$zip" >/dev/null || { echo "$zip is not a readable zip file." >&2; exit 1; }
find "$data" -mindepth 1 -delete
unzip -q "$zip" -d "$data"
