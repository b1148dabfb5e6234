import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useAppShell, AppShellDocument } from "../../gql/AppShell.generated.ts";
import {
  useConfirmPasswordReset,
  useConfirmVerification,
  useRequestPasswordReset,
  useRequestVerification,
  useSignIn,
  useSignUp,
} from "./auth.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { TextField } from "../../components/Field.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { handleError } from "../../lib/handleError.ts";
import { LIMITS } from "@flock/shared/limits";

/** Only same-site paths may be used as the place to return to after signing in. */
function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/me";
}

/** After signing in or out, the shell (viewer, permissions) is read again before moving on. */
const refetchShell = { refetchQueries: [{ query: AppShellDocument }], awaitRefetchQueries: true };

export function SignInPage() {
  const { t } = useI18n();
  usePageTitle(t("auth.signIn.title"));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { data } = useAppShell();
  const [signIn] = useSignIn(refetchShell);
  const form = useForm({ email: "", password: "" });

  return (
    <div className="container narrow page">
      <h1>{t("auth.signIn.title")}</h1>
      <form
        className="form card"
        onSubmit={form.submit(async (values) => {
          await signIn({ variables: { input: values } });
          void navigate(safeNext(params.get("next")), { replace: true });
        })}
        noValidate
      >
        {form.error && <Alert kind="error">{form.error.message}</Alert>}
        <TextField
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          required
          {...form.bind("email")}
          error={form.fieldError("email")}
        />
        <TextField
          label={t("auth.password")}
          type="password"
          autoComplete="current-password"
          required
          {...form.bind("password")}
          error={form.fieldError("password")}
        />
        <button type="submit" className="button" disabled={form.submitting}>
          {form.submitting ? t("common.saving") : t("auth.signIn.submit")}
        </button>
        <p>
          <Link to="/forgot-password">{t("auth.signIn.forgot")}</Link>
        </p>
        {data?.settings.allowSignup && (
          <p>
            {t("auth.signIn.noAccount")} <Link to="/signup">{t("nav.signUp")}</Link>
          </p>
        )}
      </form>
    </div>
  );
}

export function SignUpPage() {
  const { t, locale } = useI18n();
  usePageTitle(t("auth.signUp.title"));
  const [params] = useSearchParams();
  // From a household invitation email: the new person joins that household (staff still approve).
  const inviteToken = params.get("invite") || null;
  const { data } = useAppShell();
  const [signUp] = useSignUp();
  // The answer is the same whether or not the address has an account (it never reveals who has
  // one): either way the next step is in the mail.
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ firstName: "", lastName: "", email: "", password: "", passwordConfirm: "" });
  const church = data?.settings.churchName ?? "";
  const inviteError = form.fieldError("inviteToken");

  if (sentTo) {
    return (
      <div className="container narrow page">
        <h1>{t("auth.signUp.checkEmail")}</h1>
        <Alert kind="success">{t("auth.signUp.sent", { email: sentTo })}</Alert>
        <p>{t("auth.signUp.sentNext")}</p>
        <p>
          <Link to="/login" className="button">
            {t("nav.signIn")}
          </Link>
        </p>
      </div>
    );
  }

  if (data && !data.settings.allowSignup) {
    return (
      <div className="container narrow page">
        <h1>{t("auth.signUp.title")}</h1>
        <Alert kind="info">{t("auth.signUp.closed")}</Alert>
      </div>
    );
  }
  return (
    <div className="container narrow page">
      <h1>{t("auth.signUp.title")}</h1>
      <p>{t("auth.signUp.intro", { church })}</p>
      {inviteToken && !inviteError && <Alert kind="info">{t("auth.signUp.invited")}</Alert>}
      <form
        className="form card"
        onSubmit={form.submit(async (values) => {
          await signUp({ variables: { input: { ...values, locale, inviteToken } } });
          setSentTo(values.email.trim());
        })}
        noValidate
      >
        {form.error && (
          <Alert kind="error">
            {inviteError ? (
              <>
                {t("auth.signUp.inviteInvalid")} <Link to="/signup">{t("auth.signUp.withoutInvite")}</Link>
              </>
            ) : (
              form.error.message
            )}
          </Alert>
        )}
        <div className="form__row">
          <TextField
            label={t("auth.firstName")}
            autoComplete="given-name"
            required
            maxLength={LIMITS.personNameMax}
            {...form.bind("firstName")}
            error={form.fieldError("firstName")}
          />
          <TextField
            label={t("auth.lastName")}
            autoComplete="family-name"
            required
            maxLength={LIMITS.personNameMax}
            {...form.bind("lastName")}
            error={form.fieldError("lastName")}
          />
        </div>
        <TextField
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          required
          {...form.bind("email")}
          error={form.fieldError("email")}
        />
        <TextField
          label={t("auth.password")}
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint={t("auth.passwordHint")}
          {...form.bind("password")}
          error={form.fieldError("password")}
        />
        <TextField
          label={t("auth.passwordConfirm")}
          type="password"
          autoComplete="new-password"
          required
          {...form.bind("passwordConfirm")}
          error={form.fieldError("passwordConfirm")}
        />
        <button type="submit" className="button" disabled={form.submitting}>
          {form.submitting ? t("common.saving") : t("auth.signUp.submit")}
        </button>
        <p>
          {t("auth.signUp.haveAccount")} <Link to="/login">{t("nav.signIn")}</Link>
        </p>
      </form>
    </div>
  );
}

export function ForgotPasswordPage() {
  const { t } = useI18n();
  usePageTitle(t("auth.forgot.title"));
  const [request] = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ email: "" });
  return (
    <div className="container narrow page">
      <h1>{t("auth.forgot.title")}</h1>
      {sentTo ? (
        <Alert kind="success">{t("auth.forgot.sent", { email: sentTo })}</Alert>
      ) : (
        <form
          className="form card"
          onSubmit={form.submit(async ({ email }) => {
            await request({ variables: { email } });
            setSentTo(email);
          })}
          noValidate
        >
          <p>{t("auth.forgot.intro")}</p>
          {form.error && <Alert kind="error">{form.error.message}</Alert>}
          <TextField
            label={t("auth.email")}
            type="email"
            autoComplete="email"
            required
            {...form.bind("email")}
            error={form.fieldError("email")}
          />
          <button type="submit" className="button" disabled={form.submitting}>
            {t("auth.forgot.submit")}
          </button>
        </form>
      )}
      <p>
        <Link to="/login">{t("auth.backToSignIn")}</Link>
      </p>
    </div>
  );
}

export function ResetPasswordPage() {
  const { t } = useI18n();
  usePageTitle(t("auth.reset.title"));
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [confirm] = useConfirmPasswordReset();
  const [done, setDone] = useState(false);
  const form = useForm({ password: "", passwordConfirm: "" });
  const tokenError = form.fieldError("token");
  return (
    <div className="container narrow page">
      <h1>{t("auth.reset.title")}</h1>
      {!token ? (
        <Alert kind="error">
          {t("auth.reset.missingToken")} <Link to="/forgot-password">{t("auth.reset.requestNew")}</Link>
        </Alert>
      ) : done ? (
        <>
          <Alert kind="success">{t("auth.reset.done")}</Alert>
          <p>
            <Link to="/login" className="button">
              {t("nav.signIn")}
            </Link>
          </p>
        </>
      ) : (
        <form
          className="form card"
          onSubmit={form.submit(async (values) => {
            await confirm({ variables: { input: { token, ...values } } });
            setDone(true);
          })}
          noValidate
        >
          {form.error && (
            <Alert kind="error">
              {tokenError ?? form.error.message}
              {tokenError && (
                <>
                  {" "}
                  <Link to="/forgot-password">{t("auth.reset.requestNew")}</Link>
                </>
              )}
            </Alert>
          )}
          <TextField
            label={t("me.newPassword")}
            type="password"
            autoComplete="new-password"
            required
            hint={t("auth.passwordHint")}
            {...form.bind("password")}
            error={form.fieldError("password")}
          />
          <TextField
            label={t("auth.passwordConfirm")}
            type="password"
            autoComplete="new-password"
            required
            {...form.bind("passwordConfirm")}
            error={form.fieldError("passwordConfirm")}
          />
          <button type="submit" className="button" disabled={form.submitting}>
            {t("auth.reset.submit")}
          </button>
        </form>
      )}
    </div>
  );
}

export function VerifyEmailPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("auth.verify.title"));
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [confirm] = useConfirmVerification(refetchShell);
  const [state, setState] = useState<"working" | "done" | "failed">(token ? "working" : "failed");
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Tokens are single-use: confirm once even under StrictMode's double effects.
    if (!token || started.current) return;
    started.current = true;
    confirm({ variables: { token } })
      .then(() => setState("done"))
      .catch((error: unknown) => {
        const ui = handleError(error, i18n);
        setFailure(ui.fieldErrors.token ? null : ui.message);
        setState("failed");
      });
  }, [token, confirm, i18n]);

  return (
    <div className="container narrow page">
      <h1>{t("auth.verify.title")}</h1>
      {state === "working" && <Loading />}
      {state === "done" && (
        <>
          <Alert kind="success">{t("auth.verify.done")}</Alert>
          <p>
            <Link to="/me" className="button">
              {t("auth.continue")}
            </Link>
          </p>
        </>
      )}
      {state === "failed" && (
        <>
          <Alert kind="error">{failure ?? t("auth.verify.failed")}</Alert>
          <ResendVerificationForm />
        </>
      )}
    </div>
  );
}

function ResendVerificationForm() {
  const { t } = useI18n();
  const { data } = useAppShell();
  const [request] = useRequestVerification();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ email: data?.viewer?.user.email ?? "" });
  if (sentTo) return <Alert kind="success">{t("auth.verify.resent", { email: sentTo })}</Alert>;
  return (
    <form
      className="form card"
      onSubmit={form.submit(async ({ email }) => {
        await request({ variables: { email } });
        setSentTo(email);
      })}
      noValidate
    >
      {form.error && <Alert kind="error">{form.error.message}</Alert>}
      <TextField
        label={t("auth.email")}
        type="email"
        autoComplete="email"
        required
        {...form.bind("email")}
        error={form.fieldError("email")}
      />
      <button type="submit" className="button">
        {t("auth.verify.resend")}
      </button>
    </form>
  );
}
