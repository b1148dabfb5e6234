import { useState } from "react";
import { Link } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useChangePassword } from "./me.generated.ts";
import { useRequestVerification } from "../auth/auth.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import type { MessageKey } from "../../i18n/catalogs.ts";
import { Alert } from "../../components/Alert.tsx";
import { TextField } from "../../components/Field.tsx";
import { useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { MyEventsCard } from "./MyEventsCard.tsx";
import { MyGroupsCard } from "./MyGroupsCard.tsx";

/** The member's own page: what needs attention, then the sections of the account. */
export function MePage() {
  const { t } = useI18n();
  usePageTitle(t("me.title"));
  const { data } = useAppShell();
  const viewer = data?.viewer;
  if (!viewer) return null;
  const name = viewer.person?.firstName ?? viewer.user.name;
  const links: Array<{ to: string; title: MessageKey; body: MessageKey }> = [
    { to: "/me/profile", title: "me.nav.profile", body: "me.card.profile" },
    { to: "/me/household", title: "me.nav.household", body: "me.card.household" },
    { to: "/me/privacy", title: "me.nav.privacy", body: "me.card.privacy" },
    ...(viewer.isMember
      ? [{ to: "/directory", title: "directory.title", body: "me.card.directory" } as const]
      : []),
    { to: "/me/data", title: "me.nav.data", body: "me.card.data" },
  ];
  return (
    <>
      <h1>{t("me.hello", { name })}</h1>
      {!viewer.user.verified && <VerificationNotice email={viewer.user.email} />}
      {viewer.person?.recordStatus === "PENDING" && <Alert kind="info">{t("me.pending")}</Alert>}
      <ul className="link-cards">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="link-card">
              <span className="link-card__title">{t(link.title)}</span>
              <span className="link-card__body">{t(link.body)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="cards">
        <MyEventsCard />
        {viewer.person && <MyGroupsCard />}
        <ChangePasswordForm />
      </div>
    </>
  );
}

function VerificationNotice({ email }: { email: string }) {
  const { t } = useI18n();
  const [request, { loading }] = useRequestVerification();
  const [sent, setSent] = useState(false);
  return (
    <Alert kind="warning">
      {t("me.unverified", { email })}{" "}
      {sent ? (
        t("me.verificationSent")
      ) : (
        <button
          type="button"
          className="link-button"
          disabled={loading}
          onClick={() => void request({ variables: { email } }).then(() => setSent(true))}
        >
          {t("me.resendVerification")}
        </button>
      )}
    </Alert>
  );
}

function ChangePasswordForm() {
  const { t } = useI18n();
  const [changePassword] = useChangePassword();
  const [done, setDone] = useState(false);
  const form = useForm({ currentPassword: "", password: "", passwordConfirm: "" });
  return (
    <section className="card" aria-labelledby="change-password">
      <h2 id="change-password">{t("me.changePassword")}</h2>
      <form
        className="form"
        onSubmit={form.submit(async (values) => {
          setDone(false);
          await changePassword({ variables: { input: values } });
          form.setValues({ currentPassword: "", password: "", passwordConfirm: "" });
          setDone(true);
        })}
        noValidate
      >
        {done && <Alert kind="success">{t("me.passwordChanged")}</Alert>}
        {form.error && <Alert kind="error">{form.error.message}</Alert>}
        <TextField
          label={t("me.currentPassword")}
          type="password"
          autoComplete="current-password"
          required
          {...form.bind("currentPassword")}
          error={form.fieldError("currentPassword")}
        />
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
          {form.submitting ? t("common.saving") : t("me.changePassword")}
        </button>
      </form>
    </section>
  );
}
