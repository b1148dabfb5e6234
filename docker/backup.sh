#!/bin/sh
# Back up Flock's data to ./backups/ on this host, while the site keeps running, and keep the newest
# FLOCK_BACKUP_KEEP of them there (default 14: two weeks of daily backups; older ones are deleted by
# docker/prune-backups.sh).
#
# PocketBase makes the backup itself (a zip of pb_data: database and uploaded files), consistently,
# through its backup API; the request runs inside the gateway container, which has PocketBase's
# address and the system account in its environment. The zip is then copied out of the volume and
# removed from it. Run from anywhere; suitable for cron, e.g.
#   15 3 * * *  /srv/flock/docker/backup.sh >> /var/log/flock-backup.log 2>&1
# Restore with docker/restore.sh. Copy ./backups/ somewhere else too (another disk, another place).
set -eu
cd "$(dirname "$0")/.."
keep=${FLOCK_BACKUP_KEEP:-14}
# Checked before the backup, so that a typo costs nothing.
sh docker/prune-backups.sh --check "$keep"
mkdir -p backups

name=$(docker compose exec -T gateway node --input-type=module - <<'JS'
import { readFileSync } from "node:fs";
const pb = process.env.PB_URL;
// The system account's password: its variable, or the secret file PB_SUPERUSER_PASSWORD_FILE names.
const password = process.env.PB_SUPERUSER_PASSWORD ||
  readFileSync(process.env.PB_SUPERUSER_PASSWORD_FILE, "utf8").replace(/\r?\n$/, "");
const auth = await fetch(`${pb}/api/collections/_superusers/auth-with-password`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ identity: process.env.PB_SUPERUSER_EMAIL, password }),
});
if (!auth.ok) throw new Error(`PocketBase sign-in failed (${auth.status})`);
const { token } = await auth.json();
// PocketBase accepts names matching [a-z0-9_-]+\.zip
const name = `flock-${new Date().toISOString().slice(0, 19).replace(/\D/g, "")}.zip`;
const created = await fetch(`${pb}/api/backups`, {
  method: "POST",
  headers: { authorization: token, "content-type": "application/json" },
  body: JSON.stringify({ name }),
});
if (!created.ok) throw new Error(`Backup failed (${created.status}): ${await created.text()}`);
console.log(name);
JS
)

docker compose cp "pocketbase:/pb/pb_data/backups/$name" "backups/$name"

# The host copy is the backup: free the space in the volume.
docker compose exec -T -e BACKUP_NAME="$name" gateway node --input-type=module - <<'JS'
import { readFileSync } from "node:fs";
const pb = process.env.PB_URL;
// The system account's password: its variable, or the secret file PB_SUPERUSER_PASSWORD_FILE names.
const password = process.env.PB_SUPERUSER_PASSWORD ||
  readFileSync(process.env.PB_SUPERUSER_PASSWORD_FILE, "utf8").replace(/\r?\n$/, "");
const auth = await fetch(`${pb}/api/collections/_superusers/auth-with-password`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ identity: process.env.PB_SUPERUSER_EMAIL, password }),
});
if (!auth.ok) throw new Error(`PocketBase sign-in failed (${auth.status})`);
const { token } = await auth.json();
const removed = await fetch(`${pb}/api/backups/${encodeURIComponent(process.env.BACKUP_NAME)}`, { method: "DELETE", headers: { authorization: token } });
if (!removed.ok) throw new Error(`Removing the backup from the volume failed (${removed.status})`);
JS

echo "Backup written to backups/$name ($(du -h "backups/$name" | cut -f1))."
sh docker/prune-backups.sh backups "$keep"
