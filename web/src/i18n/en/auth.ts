/** English: sign in, sign up, password reset, email verification (features/auth). */
export const auth = {
  "auth.password": "Password",
  "auth.signIn.title": "Sign in",
  "auth.signIn.submit": "Sign in",
  "auth.signIn.forgot": "Forgot your password?",
  "auth.signIn.noAccount": "New here?",
  "auth.signUp.title": "Create your account",
  "auth.signUp.intro":
    "Members of {church} can see the directory, groups and members-only news once the church office approves the account.",
  "auth.signUp.submit": "Create account",
  "auth.signUp.haveAccount": "Already have an account?",
  "auth.signUp.closed": "Online sign-up is closed. Please contact the church office to get an account.",
  "auth.signUp.checkEmail": "Check your email",
  "auth.signUp.sent":
    "We sent a message to {email}. Open the link in it to confirm your address, then sign in.",
  "auth.signUp.sentNext":
    "If this address already has an account, the message tells you how to sign in or reset your password instead. Nothing arrived after a few minutes? Look in your spam folder.",
  "auth.forgot.title": "Forgot your password?",
  "auth.forgot.intro": "Enter your email and we'll send you a link to choose a new password.",
  "auth.forgot.submit": "Send reset link",
  "auth.forgot.sent":
    "If an account exists for {email}, a reset link is on its way. The link works for 30 minutes.",
  "auth.reset.title": "Choose a new password",
  "auth.reset.submit": "Save new password",
  "auth.reset.done": "Your password has been changed. Other devices have been signed out.",
  "auth.reset.missingToken": "This page needs the link from the reset email.",
  "auth.reset.requestNew": "Request a new link",
  "auth.verify.title": "Confirm your email",
  "auth.verify.working": "Confirming your email…",
  "auth.verify.done": "Thank you, your email address is confirmed.",
  "auth.verify.failed": "This link is invalid or has expired.",
  "auth.verify.resend": "Send a new link",
  "auth.verify.resent": "If {email} has an unconfirmed account, a new link is on its way.",
  "auth.backToSignIn": "Back to sign in",
  "auth.continue": "Continue",
  "auth.signUp.invited":
    "You're joining a household you were invited to. Create your account below; the church office confirms it.",
  "auth.signUp.inviteInvalid":
    "This invitation link is invalid or has expired. Ask the person who invited you for a new one, or",
  "auth.signUp.withoutInvite": "create an account without it.",
} as const;
