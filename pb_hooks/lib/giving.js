/// <reference path="../../pb_data/types.d.ts" />
// Giving (issue 29), decided inside each write's transaction (see ../giving.pb.js), so the rules hold on
// every write path: a gift's splits sum to it and name open funds, its batch is open, a batch closes only
// when its gifts match the control figures and reopens only with a reason — each once, however many
// treasurers press at the same moment (the batch is read again inside the transaction).

const fail = (code, field, message) => {
  throw new BadRequestError(message, { [field]: new ValidationError("validation_" + code, message) });
};

const SPLITS_MAX = 10;

/** A gift's splits as stored (a JSON field: its text, parsed); null when it is not JSON. */
function splitsOf(gift) {
  try {
    return JSON.parse(gift.getString("splits") || "null");
  } catch (_) {
    return null;
  }
}

/** A batch as it is now in the database (not as the request loaded it before waiting for the transaction). */
const currentBatch = (app, id) => app.findRecordById("donation_batches", id);

/** The batch `id` (if any) takes changes: it is open. */
function requireOpenBatch(app, id) {
  if (!id) return;
  if (currentBatch(app, id).getString("status") === "closed")
    fail("batch_closed", "batch", "This batch is closed: its gifts can no longer change. Reopen it first.");
}

/** The gift's splits: 1–10 of { fund, amountCents }, whole positive cents summing to the gift, into open funds. */
function checkSplits(app, gift, changingFunds) {
  const splits = splitsOf(gift);
  if (!Array.isArray(splits) || splits.length < 1 || splits.length > SPLITS_MAX)
    fail("splits_invalid", "splits", `Give the gift 1 to ${SPLITS_MAX} funds.`);
  let sum = 0;
  const seen = {};
  const clean = [];
  for (const split of splits) {
    const amount = split && split.amountCents;
    const fundId = split && typeof split.fund === "string" ? split.fund : "";
    if (!Number.isInteger(amount) || amount < 1)
      fail("splits_invalid", "splits", "Each fund's amount must be above zero.");
    if (!fundId || seen[fundId]) fail("splits_invalid", "splits", "Name each fund once.");
    seen[fundId] = true;
    let fund;
    try {
      fund = app.findRecordById("funds", fundId);
    } catch (_) {
      fail("fund_not_found", "splits", "A fund was not found.");
    }
    // A closed fund takes no new gift; a gift already in it may stay as it was.
    if (fund.getString("visibility") === "closed" && changingFunds(fundId, amount))
      fail("fund_closed", "splits", `${fund.getString("name")} is closed to new gifts.`);
    sum += amount;
    clean.push({ fund: fundId, amountCents: amount });
  }
  if (sum !== gift.getInt("amountCents"))
    fail("splits_sum", "splits", "The funds' amounts must add up to the gift.");
  gift.set("splits", clean);
  return clean;
}

/** The giving unit: the donor's household at the time of the gift, unless they give individually. */
function givingUnitOf(app, gift) {
  const personId = gift.getString("person");
  if (!personId || gift.getBool("individual")) return "";
  try {
    return app.findRecordById("people", personId).getString("household");
  } catch (_) {
    fail("person_not_found", "person", "The donor was not found.");
  }
}

function currencyOf(app) {
  try {
    return app.findFirstRecordByFilter("settings", "id != ''").getString("currency") || "USD";
  } catch (_) {
    return "USD";
  }
}

/**
 * A new gift: into an open batch and open funds, its unit and currency set here. A payment made online
 * (one provider payment, `providerRef`) is recorded even if its fund closed between the donor's checkout
 * and the provider's word that it was paid: the money was taken, and the record must say so.
 */
function admitGift(app, gift) {
  requireOpenBatch(app, gift.getString("batch"));
  const paidOnline = gift.getString("source") === "online" && gift.getString("providerRef") !== "";
  checkSplits(app, gift, () => !paidOnline);
  gift.set("givingUnit", givingUnitOf(app, gift));
  gift.set("currency", currencyOf(app));
  if (!gift.getString("source")) gift.set("source", "manual");
}

/** Fields a gift's amounts and place in its batch depend on (the donor is not one of them). */
const LOCKED_FIELDS = [
  "batch",
  "date",
  "amountCents",
  "method",
  "chequeNumber",
  "note",
  "individual",
  "splits",
];

/** Only the donor changed (a merge of two people records): nothing a batch's figures depend on. */
function onlyDonorChanged(gift) {
  const before = gift.original();
  return LOCKED_FIELDS.every((field) => gift.getString(field) === before.getString(field));
}

/**
 * A changed gift: its batch open before and after; a closed fund only for what it already held. A change
 * of donor alone touches no figure: it is allowed in a closed batch to the system (merging two people
 * records; people with giving.manage are refused it by the request hook, giving.pb.js), the giving unit
 * kept as it was.
 */
function reviseGift(app, gift) {
  const before = gift.original();
  if (onlyDonorChanged(gift)) {
    // In a closed batch (only the system gets here) the unit stays the one of the day it was given; in an
    // open one a corrected donor brings their own household.
    const batch = before.getString("batch");
    const closed = !!batch && currentBatch(app, batch).getString("status") === "closed";
    const sameDonor = gift.getString("person") === before.getString("person");
    gift.set("givingUnit", closed || sameDonor ? before.getString("givingUnit") : givingUnitOf(app, gift));
    gift.set("currency", before.getString("currency"));
    return;
  }
  requireOpenBatch(app, before.getString("batch"));
  requireOpenBatch(app, gift.getString("batch"));
  const held = {};
  for (const split of splitsOf(before) || []) held[split.fund] = split.amountCents;
  checkSplits(app, gift, (fund, amount) => held[fund] === undefined || amount > held[fund]);
  if (
    gift.getString("person") !== before.getString("person") ||
    gift.getBool("individual") !== before.getBool("individual")
  )
    gift.set("givingUnit", givingUnitOf(app, gift));
  gift.set("currency", before.getString("currency") || currencyOf(app));
}

/** The gift's rows per fund (donation_splits), kept in step after each save (a fund's row keeps its id). */
function writeSplits(app, gift) {
  const collection = app.findCollectionByNameOrId("donation_splits");
  const rows = app.findRecordsByFilter("donation_splits", "donation = {:id}", "", 0, 0, { id: gift.id });
  const wanted = splitsOf(gift) || [];
  for (const row of rows) if (!wanted.some((split) => split.fund === row.getString("fund"))) app.delete(row);
  for (const split of wanted) {
    const row = rows.find((r) => r.getString("fund") === split.fund) || new Record(collection);
    if (
      row.id &&
      row.getInt("amountCents") === split.amountCents &&
      row.getString("date") === gift.getString("date")
    )
      continue;
    row.set("donation", gift.id);
    row.set("fund", split.fund);
    row.set("amountCents", split.amountCents);
    row.set("date", gift.getString("date"));
    app.save(row);
  }
}

/** A batch's totals, counted again inside the write that changed one of its gifts. */
function recount(app, batchId) {
  if (!batchId) return;
  const batch = currentBatch(app, batchId);
  const gifts = app.findRecordsByFilter("donations", "batch = {:id}", "", 0, 0, { id: batchId });
  batch.set("count", gifts.length);
  batch.set(
    "totalCents",
    gifts.reduce((sum, gift) => sum + gift.getInt("amountCents"), 0),
  );
  app.unsafeWithoutHooks().save(batch);
}

/** A new batch starts open and empty. */
function admitBatch(batch) {
  batch.set("status", "open");
  batch.set("totalCents", 0);
  batch.set("count", 0);
  batch.set("reopenReason", "");
}

/**
 * A change to a batch: closing (only when its gifts match the control figures), reopening (only with a
 * reason), or, while open, its name, date and control figures. The state compared is the database's.
 */
function reviseBatch(app, batch, userId) {
  const now = currentBatch(app, batch.id);
  const was = now.getString("status");
  const wants = batch.getString("status") || was;
  // Totals are the hook's: whatever the request loaded, the database's stand.
  batch.set("totalCents", now.getInt("totalCents"));
  batch.set("count", now.getInt("count"));
  if (was === "open" && wants === "closed") {
    if (
      now.getInt("totalCents") !== batch.getInt("controlTotalCents") ||
      now.getInt("count") !== batch.getInt("controlCount")
    )
      fail(
        "totals_mismatch",
        "status",
        "The gifts do not match the counted total and number yet: check them before closing.",
      );
    batch.set("closedAt", new DateTime());
    batch.set("closedBy", userId);
    batch.set("reopenReason", now.getString("reopenReason"));
    return;
  }
  if (was === "closed" && wants === "open") {
    const reason = batch.getString("reopenReason").trim();
    if (reason.length < 3 || reason === now.getString("reopenReason"))
      fail("reason_required", "reopenReason", "Say why the batch is opened again (at least 3 characters).");
    batch.set("reopenReason", reason);
    batch.set("reopenedAt", new DateTime());
    batch.set("reopenedBy", userId);
    batch.set("closedAt", now.get("closedAt"));
    batch.set("closedBy", now.get("closedBy"));
    return;
  }
  if (was === "closed")
    fail("batch_closed", "status", "This batch is closed: reopen it (with a reason) to change it.");
  batch.set("reopenReason", now.getString("reopenReason"));
  // Keep what only closing and reopening write.
  for (const field of ["closedAt", "closedBy", "reopenedAt", "reopenedBy"]) batch.set(field, now.get(field));
}

/** A batch is removed only while it holds no gift. */
function removableBatch(app, batch) {
  if (app.countRecords("donations", $dbx.hashExp({ batch: batch.id })) > 0)
    fail("batch_not_empty", "batch", "This batch holds gifts: remove them first, or keep the batch.");
}

module.exports = {
  requireOpenBatch,
  admitGift,
  reviseGift,
  writeSplits,
  recount,
  admitBatch,
  reviseBatch,
  removableBatch,
};
