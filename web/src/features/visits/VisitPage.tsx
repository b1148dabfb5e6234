import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useSubmitVisitRequest } from "./visit.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatCalendarDate, todayIn } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { TextAreaField, TextField } from "../../components/Field.tsx";
import { PostalAddress } from "../../components/PostalAddress.tsx";
import { ServiceTimes } from "../../components/ServiceTimes.tsx";
import { useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";

const MESSAGE_MAX = 2000; // gateway LIMITS.visitMessageMax
const PARTY_MAX = 50; // gateway LIMITS.visitPartySizeMax

/** /visit: a first-time guest tells the church they're coming; staff follow up, a confirmation is emailed. */
export function VisitPage() {
  const { t, locale } = useI18n();
  usePageTitle(t("visit.title"));
  const { data } = useAppShell();
  const settings = data?.settings;
  const [submit] = useSubmitVisitRequest();
  const [sent, setSent] = useState<{ name: string; email: string; plannedDate: string } | null>(null);
  const form = useForm({
    name: data?.viewer?.user.name ?? "",
    email: data?.viewer?.user.email ?? "",
    phone: "",
    plannedDate: "",
    partySize: "1",
    message: "",
    website: "",
  });
  const today = todayIn(settings?.timezone ?? "UTC");
  const doneHeading = useRef<HTMLHeadingElement>(null);
  // The form is replaced by the thank-you: move focus there so screen readers announce it.
  useEffect(() => {
    if (sent) doneHeading.current?.focus();
  }, [sent]);

  if (sent) {
    return (
      <div className="container narrow page visit-done">
        <h1 tabIndex={-1} ref={doneHeading}>
          {t("visit.thanksTitle", { name: sent.name })}
        </h1>
        <Alert kind="success">
          {sent.plannedDate
            ? t("visit.thanksDate", { date: formatCalendarDate(sent.plannedDate, locale) })
            : t("visit.thanksNoDate")}{" "}
          {t("visit.thanksEmail", { email: sent.email })}
        </Alert>
        {settings && (
          <div className="cards visit-done__cards">
            <section className="card" aria-labelledby="visit-times">
              <h2 id="visit-times">{t("home.serviceTimes")}</h2>
              <ServiceTimes settings={settings} emptyText={t("home.noServiceTimes")} />
            </section>
            {settings.address && (
              <section className="card" aria-labelledby="visit-where">
                <h2 id="visit-where">{t("home.findUs")}</h2>
                <PostalAddress address={settings.address} />
              </section>
            )}
          </div>
        )}
        <p>
          <Link to="/">{t("notFound.home")}</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="container page visit">
      <div className="visit__intro">
        <h1>{t("visit.title")}</h1>
        <p className="lead">{t("visit.intro", { church: settings?.churchName ?? "" })}</p>
        <h2 className="visit__expect-title">{t("visit.expectTitle")}</h2>
        <ul className="visit__expect">
          <li>{t("visit.expect1")}</li>
          <li>{t("visit.expect2")}</li>
          <li>{t("visit.expect3")}</li>
        </ul>
        {settings && (
          <section className="card visit__times" aria-labelledby="visit-times">
            <h2 id="visit-times">{t("home.serviceTimes")}</h2>
            <ServiceTimes settings={settings} emptyText={t("home.noServiceTimes")} />
            {settings.address && <PostalAddress address={settings.address} />}
          </section>
        )}
      </div>
      <form
        className="form card visit__form"
        aria-labelledby="visit-form-title"
        noValidate
        onSubmit={form.submit(async (values) => {
          const partySize = values.partySize.trim() ? Number(values.partySize) : null;
          await submit({
            variables: {
              input: {
                name: values.name.trim(),
                email: values.email.trim(),
                phone: values.phone.trim() || null,
                plannedDate: values.plannedDate || null,
                partySize: Number.isFinite(partySize) ? partySize : null,
                message: values.message.trim() || null,
                website: values.website,
              },
            },
          });
          setSent({ name: values.name.trim(), email: values.email.trim(), plannedDate: values.plannedDate });
        })}
      >
        <h2 id="visit-form-title">{t("visit.formTitle")}</h2>
        {form.error && <Alert kind="error">{form.error.message}</Alert>}
        <TextField
          label={t("visit.name")}
          autoComplete="name"
          required
          maxLength={LIMITS.nameMax}
          {...form.bind("name")}
          error={form.fieldError("name")}
        />
        <TextField
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          required
          maxLength={LIMITS.emailMax}
          hint={t("visit.emailHint")}
          {...form.bind("email")}
          error={form.fieldError("email")}
        />
        <TextField
          label={t("people.phone")}
          type="tel"
          autoComplete="tel"
          maxLength={LIMITS.phoneMax}
          optionalText={t("common.optional")}
          {...form.bind("phone")}
          error={form.fieldError("phone")}
        />
        <div className="form__row">
          <TextField
            label={t("visit.plannedDate")}
            type="date"
            min={today}
            optionalText={t("common.optional")}
            {...form.bind("plannedDate")}
            error={form.fieldError("plannedDate")}
          />
          <TextField
            label={t("visit.partySize")}
            type="number"
            inputMode="numeric"
            min={1}
            max={PARTY_MAX}
            hint={t("visit.partySizeHint")}
            {...form.bind("partySize")}
            error={form.fieldError("partySize")}
          />
        </div>
        <TextAreaField
          label={t("visit.message")}
          rows={4}
          maxLength={MESSAGE_MAX}
          optionalText={t("common.optional")}
          hint={t("visit.messageHint")}
          {...form.bind("message")}
          error={form.fieldError("message")}
        />
        {/* A trap for spam robots: people never see or reach it; a filled one is quietly dropped by the gateway. */}
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor="visit-website">{t("visit.honeypot")}</label>
          <input id="visit-website" type="text" tabIndex={-1} autoComplete="off" {...form.bind("website")} />
        </div>
        <p className="muted small">{t("visit.privacy")}</p>
        <button type="submit" className="button" disabled={form.submitting}>
          {form.submitting ? t("visit.sending") : t("visit.submit")}
        </button>
      </form>
    </div>
  );
}
