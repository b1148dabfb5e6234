/// <reference path="../../pb_data/types.d.ts" />
/** A field that, once set, keeps its value: a save that changes it keeps the stored one. */
function keep(record, field) {
  const stored = record.original().getString(field);
  if (stored && record.getString(field) !== stored) record.set(field, stored);
}

module.exports = { keep };
