/**
 * What the gateway writes to people (mails, in-app notification titles, server-rendered titles),
 * in English: the source of every key. Spanish (server-es.ts) must translate each one (type-checked,
 * and gateway tests check the ICU syntax and placeholders). ICU MessageFormat (format.ts): `{name}`,
 * `{count, plural, one {…} other {…}}`, `{flag, select, yes {…} other {…}}`.
 */
export const serverEn = {
  // Mail buttons and shared lines
  "mail.hello": "Hello {name},",

  // PocketBase's own mails (verification, password reset, new sign-in): the church's language.
  "auth.verify.subject": "Confirm your email for {church}",
  "auth.verify.welcome": "Welcome to {church}!",
  "auth.verify.body": "Please confirm your email address with the button below.",
  "auth.verify.button": "Confirm my email",
  "auth.verify.footnote": "If you did not create an account, you can ignore this message.",
  "auth.reset.subject": "Reset your {church} password",
  "auth.reset.hello": "Hello,",
  "auth.reset.body":
    "Someone asked to reset the password of your {church} account. Choose a new one with the button below.",
  "auth.reset.button": "Choose a new password",
  "auth.reset.footnote":
    "The link works for 30 minutes. If it was not you, you can ignore this message: your password stays as it is.",
  "auth.alert.subject": "New sign-in to your {church} account",
  "auth.alert.body": "Someone signed in to your {church} account from a new device or location:",
  "auth.alert.ok": "If this was you, there is nothing to do.",
  "auth.alert.button": "It wasn't me: reset my password",

  // Someone tried to sign up with an address that already has an account.
  "signupAttempt.subject": "Someone tried to sign up at {church} with your address",
  "signupAttempt.body":
    "Someone tried to create an account at {church} with this email address. This address already has an account, so nothing was changed.",
  "signupAttempt.forgot":
    "If it was you, sign in with your password. If you have forgotten it, reset it here: {url}",
  "signupAttempt.ignore": "If it wasn't you, you can ignore this email.",
  "signupAttempt.button": "Sign in",

  // A sign-up approved (notification and mail).
  "signupApproved.title": "Your membership is approved",
  "signupApproved.body": "The member areas are open to you now.",
  "signupApproved.welcome":
    "Welcome to {church}! Your membership is approved: the member areas are open to you now. Complete your profile and choose who may see your contact details.",
  "signupApproved.button": "Open my page",

  // Data deletion requested (to the staff who manage people).
  "deletion.subject": "{name} asked for their data to be deleted",
  "deletion.body": "{name} asked {church} to delete the personal data the app holds about them.",
  "deletion.next":
    "Review their record, then anonymise it: the personal data, files and login are removed, and records kept for the church's counts stay.",
  "deletion.button": "Open their record",

  // Household invitation.
  "invitation.subject": "{inviter} invited you to join {household} at {church}",
  "invitation.body": "{inviter} invited you to join the household “{household}” in {church}'s app.",
  "invitation.link":
    "Create your account with the link below (it works for {days, plural, one {# day} other {# days}}).",
  "invitation.button.hint":
    "Create your account with the button below (it works for {days, plural, one {# day} other {# days}}).",
  "invitation.confirm": "The church office confirms new accounts before the member areas open.",
  "invitation.ignore": "If you don't know this person, you can ignore this message.",
  "invitation.button": "Create your account",

  // Directory "Contact" relay.
  "contact.subject": "{sender} sent you a message through {church}",
  "contact.footer":
    "{sender} wrote to you through {church}'s member directory. {shown, select, yes {They can see this email address on your directory card (your privacy settings decide who can).} other {This email address was not shown to them.}} If you reply, they will see the address you reply from.",

  // Plan a visit: the visitor's confirmation.
  "visit.subject": "Your visit to {church}",
  "visit.thanks":
    "Thank you for planning a visit to {church}. {hasDate, select, yes {We look forward to seeing you on {date}} other {We look forward to seeing you}}{party, plural, =0 {} =1 {} other { (a party of #)}}. Someone from the church may contact you before then.",
  "visit.times": "Service times:",
  "visit.where": "Where: {address}",
  "visit.ignore": "If you did not plan a visit, you can ignore this message.",

  // Events: registration, waitlist promotion and RSVP confirmations (the church's language for visitors).
  "event.registered.subject": "{confirmed, plural, =0 {Waitlisted} other {Registered}}: {event}",
  "event.registered.when": "{event} — {when}{hasPlace, select, yes {, {place}} other {}}.",
  "event.registered.confirmed": "Confirmed: {count, plural, one {# place} other {# places}}.",
  "event.registered.waitlisted":
    "On the waitlist: {count, plural, one {# place} other {# places}}. We will email you if a seat frees up.",
  "event.registered.answer": "{question} — {answer}",
  "event.answer.yes": "Yes",
  "event.answer.no": "No",
  "event.registered.code": "Your confirmation code: {code}",
  "event.registered.cancelHint":
    "If your plans change, cancel with the button below so someone else can come.",
  "event.registered.button": "View or cancel my registration",
  "event.promoted.subject": "A seat is yours: {event}",
  "event.promoted.body":
    "A seat freed up and your registration for {event} — {when} is now confirmed ({count, plural, one {# place} other {# places}}).",
  "event.moved.subject": "New date for your registration: {event}",
  "event.moved.body":
    "Your registration for {event} was moved to {when}. {status, select, confirmed {Your {count, plural, one {place is} other {# places are}} confirmed.} other {You are number {position} on the waitlist there; we will email you if a seat frees up.}}",
  "event.cancelled.subject": "Cancelled: {event}",
  "event.cancelled.body":
    "{event} — {when} has been cancelled.{hasNote, select, yes { {note}} other {}} We are sorry for the change of plans.",
  "event.cancelled.signUp":
    "{kind, select, registration {Your registration} other {Your reply}} for that date no longer applies; there is nothing you need to do.",
  "event.cancelled.button": "See what else is on",
  "event.cancelledByStaff.subject": "Your registration was cancelled: {event}",
  "event.cancelledByStaff.body":
    "{church} cancelled your registration for {event} — {when}. If that is a mistake, reply to this email or get in touch with the church.",
  "event.rsvp.subject":
    "Your answer for {event}: {response, select, yes {going} no {not going} other {maybe}}",
  "event.rsvp.body":
    "Thank you for answering for {event} — {when}{hasPlace, select, yes {, {place}} other {}}. Your answer: {response, select, yes {going} no {not going} other {maybe}}{guests, plural, =0 {} one { with # guest} other { with # guests}}.",
  "event.rsvp.change":
    "To change or withdraw your answer, use the button below, from any browser. It works without signing in, so keep this mail to yourself.",
  "event.rsvp.changeSignedIn": "To change your answer, open the event page while signed in.",
  "event.rsvp.button": "Open the event",
  "event.rsvp.manageButton": "See or change your answer",

  // Prayer: the requester hears what happened to their request.
  "prayer.prayed.title": "Someone prayed for your request",
  // Serving: a request to serve, and a decline told to the team's leaders.
  "serving.asked.title": "Can you serve as {position} on {date}?",
  "serving.asked.text": "{leader} asks you to serve as {position} ({team}) for {plan} on {date}.",
  "serving.asked.hint":
    "Answer with the button below: it works once, without signing in, so keep this mail to yourself. You can also answer, or change your mind, under My serving.",
  "serving.asked.button": "Answer",
  "serving.declined.title": "{name} can't serve as {position} on {date}",
  "serving.declined.text":
    "{name} declined serving as {position} for {plan} on {date}.{hasReason, select, yes { Their reason: “{reason}”} other {}}",
  "serving.declined.offered": "The place was offered to {next}.",
  "serving.swap.title": "{name} asks for someone to serve as {position} on {date}",
  "serving.swap.text":
    "{name} can't serve as {position} ({team}) for {plan} on {date} after all and asks for someone to take their place. If you can, take it under My serving: the first to take it serves.",
  "serving.swap.button": "See the place",
  "serving.swapped.title": "{taker} takes {name}'s place as {position} on {date}",
  "serving.swapped.text":
    "{taker} took {name}'s place as {position} ({team}) for {plan} on {date}. {name} no longer serves then.",
  "checkin.page.title": "Please come to {room}: {child} needs you",
  "checkin.page.text":
    "The volunteers in {room} ask you to come for {child} ({session}). Bring your pickup tag.",
  "groups.request.title": "{name} asks to join {group}",
  "groups.approved.title": "Welcome to {group}: your request was approved",
  "groups.request.text":
    "{name} asks to join {group}. As one of its leaders, you can approve or decline the request on the group's page.",
  "groups.request.note": "Their message: “{note}”",
  "groups.request.button": "Answer the request",
  "groups.approved.text":
    "A leader approved your request: you are now a member of {group}, and can read and write in its chat.",
  "groups.approved.button": "Open the group",
  "groups.declined.title": "Your request to join {group} was declined",
  "groups.declined.text":
    "A leader of {group} declined your request to join. You are welcome to find another group, or to ask the church office about this one.",
  "groups.chat.title": "New messages in {group}",
  "prayer.approved.title": "Your prayer request was approved",
  "prayer.approved.subject": "Your prayer request at {church} was approved",
  "prayer.approved.wall": "Your prayer request is now on the prayer wall, and people can pray for it:",
  "prayer.approved.group": "Your prayer request was approved and shared with your group:",
  "prayer.approved.pastoral": "Your prayer request was approved and shared with the pastoral team:",
  "prayer.rejected.title": "Your prayer request was not approved",
  "prayer.answered.title": "Your prayer request was marked answered",
  "prayer.answered.subject": "Your prayer request at {church} was marked answered",
  "prayer.answered.text": "Your prayer request was marked answered, with this praise report:",
  "prayer.button.wall": "See it on the prayer wall",

  // Staff alerts (system/staff-alerts.ts).
  "alert.visit.title": "New visit request from {name}",
  "alert.visit.summary":
    "{name} plans a visit{hasDate, select, yes { for {date}} other {}}{party, plural, =0 {} =1 {} other { (a party of #)}}.",
  "alert.visit.message": "Their message:",
  "alert.visit.next": "Welcome them: contact them, and add them to the people list from the visit.",
  "alert.visit.button": "Open visit requests",
  "alert.signup.title": "{name} signed up and waits for approval",
  "alert.signup.body": "Approve the sign-up, or match it to a person already on the list.",
  "alert.signup.text":
    "{name} created an account. The member areas open for them once someone approves the sign-up (or matches it to a person already on the list).",
  "alert.signup.button": "Review the sign-up",
  "alert.prayer.title":
    "{pastoral, select, yes {A pastoral prayer request arrived} other {A prayer request waits for moderation}}",
  "alert.prayer.text":
    "{pastoral, select, yes {A request for the pastors only} other {A new request for the prayer wall}}:",
  "alert.prayer.button": "Open prayer requests",

  // The staff's daily digest (system/staff-digest.ts).
  "notification.webhookDisabled.title": "A webhook to {host} was turned off",
  "notification.webhookDisabled.body":
    "{failures, plural, one {# delivery} other {# deliveries}} in a row failed after every retry, so it was disabled. Check the receiver, then turn it back on in Integrations.",
  "digest.title": "Daily digest: {count, plural, one {# new item} other {# new items}}",
  "digest.subject": "Daily digest for {church}: {count, plural, one {# new item} other {# new items}}",
  "digest.intro": "Here is what arrived at {church} since your last digest.",
  "digest.heading.visits": "New visit requests",
  "digest.heading.signups": "Sign-ups waiting for approval",
  "digest.heading.prayer": "Prayer requests waiting for moderation",
  "digest.section": "{heading} ({count, number}):",
  "digest.count": "{heading}: {count, number}",
  "digest.more": "and {count, number} more",
  "digest.visitLine": "{name}{hasDate, select, yes { — planning to visit on {date}} other {}} ({when})",
  "digest.footer": "You get this digest once a day. Change it under “Notifications” in your account.",
  "digest.button": "Open the church office",

  // A household made for someone approved without one: named in the church's language.
  "household.defaultName": "{lastName} household",

  // Server-rendered pages and feeds (gateway/src/http): in the church's language, like the page's lang.
  "page.home.planVisit": "Plan a visit",
  "page.home.news": "News",
  "page.title": "{page} · {church}",
  "page.notFound": "Page not found",
  "page.news": "News",
  "page.signIn": "Sign in",
  "page.signUp": "Create an account",
  "page.forgotPassword": "Forgot password",
  "page.resetPassword": "Reset password",
  "page.verifyEmail": "Verify email",
  "page.visit": "Plan a visit",
  "page.give": "Give",
  "page.giveThanks": "Thank you",
  "page.prayer": "Prayer wall",
  "page.prayerRequest": "Prayer request",
  "page.me": "My account",
  "page.directory": "Directory",
  "page.admin": "Administration",
  "page.developers": "API guide for developers",
  "page.developersDescription":
    "How to read from and write to {church}'s site with your own software: the GraphQL API, tokens, webhooks and feeds.",
  "page.sermons": "Sermons",
  "page.events": "Events",
  "page.groups": "Groups",
  "page.eventRegistration": "My registration",
  "page.servingAnswer": "A request to serve",
  "page.servingPlan": "Serving plan",
  "feed.news.title": "{church}: News",
  "feed.news.description": "News from {church}",
  "feed.sermons.title": "{church}: Sermons",
  "feed.events.title": "{church}: Events",
  "feed.sermons.description": "Sermons from {church}",

  // Serving: the reminder before a plan (system/serving-reminders.ts) and the personal calendar feed.
  "serving.reminder.subject": "Reminder: you're serving on {date}",
  "serving.reminder.text": "A reminder from {church}: you're serving at {plan} on {date}.",
  "serving.reminder.places": "{count, plural, one {Your place:} other {Your places:}}",
  "serving.reminder.times": "Times:",
  "serving.reminder.hint":
    "If you can no longer make it, tell your team leader as soon as you can. Everything you serve on is under My serving.",
  "serving.reminder.button": "Open My serving",
  "serving.place": "{position} ({team})",
  "serving.time.line": "{label}: {start} – {end}",
  "serving.time.rehearsal": "Rehearsal",
  "serving.time.service": "Service",
  "serving.time.other": "Other",
  "serving.calendar.summary": "Serving: {position} ({team}) — {plan}",

  // Answered while the server starts (migrations, the first seed), before the church's name is known.
  "starting.title": "Starting up",
  "starting.body": "The site is starting and will be ready in a moment. This page reloads by itself.",

  // Giving statements (gateway/src/schema/giving/statement-pdf.ts).
  "giving.statement.title": "Giving statement",
  "giving.statement.period": "{from} to {to}",
  "giving.statement.for": "Statement for",
  "giving.statement.date": "Date",
  "giving.statement.fund": "Fund",
  "giving.statement.method": "Method",
  "giving.statement.amount": "Amount",
  "giving.statement.methodName":
    "{method, select, cash {Cash} cheque {Cheque} card {Card} bank_transfer {Bank transfer} online {Online} other {Other}}",
  "giving.statement.cheque": "Cheque {number}",
  "giving.statement.none": "No gifts in this period.",
  "giving.statement.byFund": "By fund",
  "giving.statement.deductibleFund": "{name} (tax-deductible)",
  "giving.statement.total": "Total given",
  "giving.statement.deductible": "Tax-deductible",
  "giving.statement.nonDeductible": "Not tax-deductible",
  "giving.statement.issued": "Issued {date}",
} as const;

export type ServerMessageKey = keyof typeof serverEn;
