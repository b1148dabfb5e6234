/// <reference path="../pb_data/types.d.ts" />
// Keeps SQLite's query plans right as a church's data grows. SQLite plans from statistics
// (sqlite_stat1); taken while a table was nearly empty, they lead it to scan where an index would do
// (seen with group memberships: 200 ms instead of 1 ms). `PRAGMA optimize` re-analyses the tables whose
// size changed a lot since, and does little otherwise — SQLite recommends running it periodically in
// long-running applications.
cronAdd("flock_sqlite_optimize", "17 * * * *", () => {
  $app.db().newQuery("PRAGMA optimize").execute();
});
