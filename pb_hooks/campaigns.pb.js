/// <reference path="../pb_data/types.d.ts" />
// Pledges and campaigns (issue 29), decided inside each write whatever path writes: a campaign ends on or
// after the day it starts; a pledge's giving unit is its person's household (never the request's), and a
// new pledge goes only into an active campaign.

// (Handlers run in their own runtime: each requires what it uses; nothing outside them is in scope.)

onRecordCreate((e) => {
  const fail = (code, field, message) => {
    throw new BadRequestError(message, { [field]: new ValidationError(code, message) });
  };
  const start = e.record.getString("startsOn").slice(0, 10);
  const end = e.record.getString("endsOn").slice(0, 10);
  if (start && end && end < start)
    fail("validation_ends_before_start", "endsOn", "The campaign ends before it starts.");
  e.next();
}, "pledge_campaigns");

onRecordUpdate((e) => {
  const start = e.record.getString("startsOn").slice(0, 10);
  const end = e.record.getString("endsOn").slice(0, 10);
  if (start && end && end < start) {
    const message = "The campaign ends before it starts.";
    throw new BadRequestError(message, {
      endsOn: new ValidationError("validation_ends_before_start", message),
    });
  }
  e.next();
}, "pledge_campaigns");

onRecordCreate((e) => {
  const fail = (code, field, message) => {
    throw new BadRequestError(message, { [field]: new ValidationError(code, message) });
  };
  let campaign;
  try {
    campaign = e.app.findRecordById("pledge_campaigns", e.record.getString("campaign"));
  } catch (_) {
    fail("validation_not_found", "campaign", "The campaign was not found.");
  }
  if (campaign.getString("status") !== "active")
    fail("validation_campaign_closed", "campaign", "This campaign is closed: it takes no new pledges.");
  try {
    e.record.set(
      "givingUnit",
      e.app.findRecordById("people", e.record.getString("person")).getString("household"),
    );
  } catch (_) {
    fail("validation_not_found", "person", "The person was not found.");
  }
  e.next();
}, "pledges");

// A pledge moved to another person (finance correcting a mistake) follows that person's household.
onRecordUpdate((e) => {
  if (e.record.getString("person") !== e.record.original().getString("person")) {
    try {
      e.record.set(
        "givingUnit",
        e.app.findRecordById("people", e.record.getString("person")).getString("household"),
      );
    } catch (_) {
      const message = "The person was not found.";
      throw new BadRequestError(message, { person: new ValidationError("validation_not_found", message) });
    }
  }
  e.next();
}, "pledges");
