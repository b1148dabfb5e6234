/// <reference path="../../pb_data/types.d.ts" />
// Shared by the hooks that decide something from what is already stored (events, groups).

/**
 * Run `work(app)` inside one write transaction, with the hook's own save (e.next()) joining it: the
 * event's app is swapped for the transaction's while `work` runs. Writes through PocketBase use one
 * connection, so two transactions never interleave: what one reads (seats taken, members counted) is final.
 */
function inTransaction(e, work) {
  if (e.app.isTransactional()) {
    work(e.app);
    return;
  }
  const outer = e.app;
  try {
    outer.runInTransaction((txApp) => {
      e.app = txApp;
      work(txApp);
    });
  } finally {
    e.app = outer;
  }
}

module.exports = { inTransaction };
