/// <reference path="../pb_data/types.d.ts" />
// The public prayer wall (issue 10): the church may turn it off, and visitors may ask for a
// members-only request.
//
// - settings.prayerPublicWall (on by default, as before): when off, "public" requests are seen only
//   by active members (and staff, the requester) — in REST, GraphQL and realtime alike, because the
//   wall's rule reads the setting; anonymous visitors get nothing, and cannot mark or flag.
// - A visitor may now ask for "members" visibility (it was limited to active members): the request
//   is then prayed for by the members, never shown to the public.
// The full name on a public request is shortened to the first name for viewers who are not members
// by the gateway (schema/prayer/resolvers.ts, PrayerRequest.authorName).

const has = (permission) => `@request.auth.roles.permissions:each ?= "${permission}"`;
const ACTIVE = '@request.auth.person.recordStatus = "active"';
const MODERATE = has("prayer.moderate");
const PASTORAL = has("prayer.view_pastoral");
const IS_REQUESTER = "prayer_request_private_via_request.user ?= @request.auth.id";
const PUBLIC_WALL_ON = "@collection.settings.prayerPublicWall ?= true";

const onWall = (prefix, publicVisible) =>
  `((${prefix}status = "approved" || ${prefix}status = "answered") && ((${prefix}visibility = "public" && ${publicVisible}) || ` +
  `(${prefix}visibility = "members" && ${ACTIVE})))`;

const rules = (publicVisible, visitorsMayAskMembers) => {
  const wall = onWall("", publicVisible);
  const read = `${wall} || ${PASTORAL} || (${MODERATE} && visibility != "pastoral") || (@request.auth.id != "" && ${IS_REQUESTER})`;
  return {
    requests: {
      listRule: read,
      viewRule: read,
      createRule:
        '(status = "pending" || (status = "approved" && @collection.settings.prayerRequiresApproval ?= false)) && ' +
        'prayedCount = 0 && flagCount = 0 && answerNote = "" && rejectReason = "" && ' +
        '(anonymous = true && authorName = "" || anonymous = false && (@request.auth.id = "" || authorName = @request.auth.name)) && ' +
        (visitorsMayAskMembers
          ? '(visibility = "public" || visibility = "members" || visibility = "pastoral")'
          : `(visibility = "public" || (visibility = "members" && ${ACTIVE}) || visibility = "pastoral")`),
    },
    marks:
      '((@request.auth.id != "" && user = @request.auth.id && deviceKey = "") || (@request.auth.id = "" && user = "" && deviceKey != "")) && ' +
      "(day = strftime('%Y-%m-%d', @yesterday) || day = strftime('%Y-%m-%d', @now) || day = strftime('%Y-%m-%d', @tomorrow)) && " +
      `(${onWall("request.", publicVisible)} || (request.visibility = "pastoral" && ${PASTORAL}))`,
  };
};

function apply(app, r) {
  const requests = app.findCollectionByNameOrId("prayer_requests");
  Object.assign(requests, r.requests);
  app.save(requests);
  const marks = app.findCollectionByNameOrId("prayer_marks");
  marks.createRule = r.marks;
  app.save(marks);
}

migrate(
  (app) => {
    const settings = app.findCollectionByNameOrId("settings");
    settings.fields.add(new BoolField({ name: "prayerPublicWall" }));
    app.save(settings);
    for (const record of app.findAllRecords("settings")) {
      record.set("prayerPublicWall", true);
      app.save(record);
    }
    // Public requests: everyone while the public wall is on; otherwise active members only.
    apply(app, rules(`(${PUBLIC_WALL_ON} || ${ACTIVE})`, true));
  },
  (app) => {
    apply(app, rules("true", false));
    const settings = app.findCollectionByNameOrId("settings");
    settings.fields.removeByName("prayerPublicWall");
    app.save(settings);
  },
);
