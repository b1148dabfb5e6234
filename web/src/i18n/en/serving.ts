/** English: serving for the volunteer — a request to serve, the mail link's page, My serving (features/serving). */
export const serving = {
  "serving.request.heading": "{position} on {date}",
  "serving.request.yourReason": "Your reason: “{reason}”",
  "serving.status.PENDING": "Waiting for your answer",
  "serving.status.ACCEPTED": "You're serving",
  "serving.status.DECLINED": "You can't",
  "serving.status.CANCELLED": "Withdrawn",
  "serving.timeKind.REHEARSAL": "Rehearsal",
  "serving.timeKind.SERVICE": "Service",
  "serving.timeKind.OTHER": "Other",
  "serving.answer.title": "Can you serve?",
  "serving.answer.hello": "Hello {name},",
  "serving.answer.accept": "Yes, I'll serve",
  "serving.answer.decline": "I can't",
  "serving.answer.declineIntro":
    "Thanks for letting us know. Your leader is told at once, so they can ask someone else.",
  "serving.answer.reason": "Reason",
  "serving.answer.reasonHint": "Your team's leaders see it.",
  "serving.answer.sendDecline": "Send: I can't",
  "serving.answer.thanksYes": "Thank you! You're on the schedule.",
  "serving.answer.thanksNo": "Thank you for letting us know. Your leader has been told.",
  "serving.answer.changeLater": "Changed your mind? Sign in and use",
  "serving.answer.spent":
    "This link was already used, or is no longer valid. Sign in to see and change your answers under My serving.",
  "serving.mine.title": "My serving",
  "serving.mine.intro":
    "Where you're asked to serve from today on. You can change your answer until the day.",
  "serving.mine.empty":
    "Nobody has asked you to serve yet. When a team leader does, it shows here and by mail.",
  "serving.mine.waiting":
    "{count, plural, one {# request waits for your answer} other {# requests wait for your answer}}",
  "serving.mine.upcoming": "Answered",
} as const;
