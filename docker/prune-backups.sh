#!/bin/sh
# Keep the newest <keep> Flock backups in a folder and delete the older ones. Only files named as
# docker/backup.sh names them (flock-YYYYMMDDHHMMSS.zip) are counted or deleted: anything else in the
# folder is left alone. The names sort by age, so no file dates are trusted (a copy resets them).
#   prune-backups.sh <folder> <keep>
#   prune-backups.sh --check <keep>     only checks <keep>
# scripts/prune-backups.test.ts runs it.
set -eu
if [ "${1:-}" = "--check" ]; then
  dir=""
  keep=${2:-}
else
  dir=${1:?"usage: prune-backups.sh <folder> <keep>"}
  keep=${2:-}
fi
case "$keep" in
  '' | *[!0-9]* | 0*)
    echo "FLOCK_BACKUP_KEEP must be a whole number of backups to keep, 1 or more (it is \"$keep\")." >&2
    exit 1
    ;;
esac
[ -n "$dir" ] || exit 0
[ -d "$dir" ] || { echo "No such folder: $dir" >&2; exit 1; }

# Newest first; everything after the first <keep> goes.
ls "$dir" | grep -E '^flock-[0-9]{14}\.zip$' | sort -r | tail -n "+$((keep + 1))" | while read -r name; do
  rm -f "$dir/$name"
  echo "Removed the old backup $dir/$name (keeping the newest $keep)."
done
