/// <reference path="../pb_data/types.d.ts" />
// PocketBase's own auth mails get the text part the gateway wrote for them (lib/mail-text.js).

onMailerRecordVerificationSend((e) => {
  require(`${__hooks}/lib/mail-text.js`).useTextPart(e.message);
  e.next();
});

onMailerRecordPasswordResetSend((e) => {
  require(`${__hooks}/lib/mail-text.js`).useTextPart(e.message);
  e.next();
});

onMailerRecordAuthAlertSend((e) => {
  require(`${__hooks}/lib/mail-text.js`).useTextPart(e.message);
  e.next();
});
