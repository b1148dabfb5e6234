import { useEffect, useId, useRef, useState } from "react";
import { useApolloClient } from "@apollo/client/react";
import {
  PrayerWallDocument,
  useSubmitPrayerRequest,
  type MyPrayerRequestFragment,
} from "./prayer.generated.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import type { PrayerVisibility } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { CheckboxField, TextAreaField, TextField } from "../../components/Field.tsx";
import { useForm } from "../../lib/useForm.ts";
import { LIMITS } from "@flock/shared/limits";
import { applyWallEvent } from "./wallEvents.ts";
import { wallVariables } from "./wallVariables.ts";

const BODY_MIN = LIMITS.prayerBodyMin;
const BODY_MAX = LIMITS.prayerBodyMax;

/**
 * "Ask for prayer". Members and visitors alike; visitors add a name (unless anonymous) and an email
 * for updates. What was typed stays on any error (useForm never resets on failure); the thank-you
 * replaces the form only after the server accepted it.
 */
export function PrayerRequestForm() {
  const { t, locale } = useI18n();
  const { data: shell } = useAppShell();
  const viewer = shell?.viewer;
  const client = useApolloClient();
  const [submit] = useSubmitPrayerRequest({ refetchQueries: viewer ? ["MyPrayerRequests"] : [] });
  const [anonymous, setAnonymous] = useState(false);
  const [sent, setSent] = useState<MyPrayerRequestFragment | null>(null);
  const form = useForm({ body: "", visibility: "PUBLIC", name: "", email: "", website: "" });
  const doneHeading = useRef<HTMLHeadingElement>(null);
  const bodyField = useRef<HTMLDivElement>(null);
  const legendId = useId();
  const [focusBody, setFocusBody] = useState(false);

  useEffect(() => {
    if (sent) doneHeading.current?.focus();
  }, [sent]);
  useEffect(() => {
    if (!focusBody) return;
    bodyField.current?.querySelector("textarea")?.focus();
    setFocusBody(false);
  }, [focusBody]);

  // Visitors may ask for a members-only request too; with the public wall off, "Everyone" is not offered.
  const publicWall = shell?.settings.prayerPublicWall !== false;
  const visibilities: PrayerVisibility[] = publicWall
    ? ["PUBLIC", "MEMBERS", "PASTORAL"]
    : ["MEMBERS", "PASTORAL"];
  // The settings may arrive after the form did: "Everyone" then means members only.
  const chosen = (
    publicWall || form.values.visibility !== "PUBLIC" ? form.values.visibility : "MEMBERS"
  ) as PrayerVisibility;

  if (sent) {
    const message =
      sent.visibility === "PASTORAL"
        ? t("prayer.form.sentPastoral")
        : sent.status === "PENDING"
          ? t("prayer.form.sentPending")
          : t("prayer.form.sentApproved");
    return (
      <section className="card prayer-form prayer-form--done" aria-labelledby="prayer-form-title">
        <h2 id="prayer-form-title" tabIndex={-1} ref={doneHeading}>
          {t("prayer.form.thanks")}
        </h2>
        <Alert kind="success">{message}</Alert>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            form.setValues((v) => ({ ...v, body: "", website: "" }));
            setAnonymous(false);
            setSent(null);
            setFocusBody(true);
          }}
        >
          {t("prayer.form.another")}
        </button>
      </section>
    );
  }

  const length = form.values.body.trim().length;
  return (
    <form
      className="card form prayer-form"
      id="prayer-form"
      aria-labelledby="prayer-form-title"
      noValidate
      onSubmit={form.submit(async (values) => {
        const body = values.body.trim();
        // The server checks all of this too; checking here first answers without a round trip.
        const fieldErrors: Record<string, string> = {};
        if (body.length < BODY_MIN) fieldErrors.body = t("prayer.form.bodyTooShort", { min: BODY_MIN });
        if (!viewer && !anonymous && !values.name.trim()) fieldErrors.name = t("prayer.form.nameRequired");
        if (!viewer && !/^\S+@\S+\.\S+$/.test(values.email.trim()))
          fieldErrors.email = t("field.invalid_email");
        if (Object.keys(fieldErrors).length) {
          form.setError({ code: "BAD_USER_INPUT", message: t("prayer.form.fix"), fieldErrors });
          return;
        }
        const result = await submit({
          variables: {
            input: {
              body,
              visibility: chosen,
              anonymous,
              name: viewer || anonymous ? null : values.name.trim(),
              email: viewer ? null : values.email.trim(),
              website: values.website,
            },
          },
        });
        const request = result.data?.submitPrayerRequest;
        if (!request) return;
        // Shown at once when approval is off: put it on the wall without waiting for the live event.
        for (const filter of ["ALL", "ANSWERED"] as const) {
          client.cache.updateQuery({ query: PrayerWallDocument, variables: wallVariables(filter) }, (wall) =>
            wall
              ? (applyWallEvent(wall, { kind: "ADDED", id: request.id, request }, filter).wall ?? undefined)
              : undefined,
          );
        }
        setSent(request);
      })}
    >
      <h2 id="prayer-form-title">{t("prayer.form.title")}</h2>
      <p className="muted small">{t("prayer.form.intro")}</p>
      {form.error && <Alert kind="error">{form.error.message}</Alert>}
      <div ref={bodyField}>
        <TextAreaField
          label={t("prayer.form.body")}
          rows={6}
          required
          maxLength={BODY_MAX}
          hint={t("prayer.form.bodyCount", {
            count: length.toLocaleString(locale),
            max: BODY_MAX.toLocaleString(locale),
            min: BODY_MIN,
          })}
          {...form.bind("body")}
          error={form.fieldError("body")}
        />
      </div>
      <fieldset className="prayer-form__choices" aria-labelledby={legendId}>
        <legend id={legendId}>{t("prayer.form.visibility")}</legend>
        {visibilities.map((visibility) => (
          <label key={visibility} className="prayer-radio">
            <input
              type="radio"
              name="visibility"
              value={visibility}
              checked={chosen === visibility}
              onChange={form.bind("visibility").onChange}
            />
            <span>
              <span className="prayer-radio__label">{t(`prayer.visibility.${visibility}`)}</span>
              <span className="prayer-radio__hint">{t(`prayer.visibility.${visibility}.hint`)}</span>
            </span>
          </label>
        ))}
        {form.fieldError("visibility") && <p className="field__error">{form.fieldError("visibility")}</p>}
      </fieldset>
      <CheckboxField
        label={t("prayer.form.anonymous")}
        hint={
          viewer
            ? t("prayer.form.anonymousHint", { name: viewer.user.name })
            : t("prayer.form.anonymousHintVisitor")
        }
        checked={anonymous}
        onChange={(e) => setAnonymous(e.target.checked)}
      />
      {!anonymous && chosen === "PUBLIC" && <p className="muted small">{t("prayer.form.firstNameOnly")}</p>}
      {!viewer && (
        <>
          {!anonymous && (
            <TextField
              label={t("prayer.form.name")}
              autoComplete="name"
              required
              maxLength={LIMITS.nameMax}
              {...form.bind("name")}
              error={form.fieldError("name")}
            />
          )}
          <TextField
            label={t("auth.email")}
            type="email"
            autoComplete="email"
            required
            maxLength={LIMITS.emailMax}
            hint={t("prayer.form.emailHint")}
            {...form.bind("email")}
            error={form.fieldError("email")}
          />
        </>
      )}
      {/* A trap for spam robots: people never see or reach it; a filled one is quietly dropped by the gateway. */}
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor="prayer-website">{t("visit.honeypot")}</label>
        <input id="prayer-website" type="text" tabIndex={-1} autoComplete="off" {...form.bind("website")} />
      </div>
      <button type="submit" className="button" disabled={form.submitting}>
        {form.submitting ? t("prayer.form.sending") : t("prayer.form.submit")}
      </button>
    </form>
  );
}
