import { useMemo, useRef, useState, type FormEvent } from "react";
import {
  UploadLogoDocument,
  useAdminSettingsPage,
  useRemoveLogo,
  useUpdateSettings,
  type AdminSettingsFieldsFragment,
  type UploadLogoMutation,
} from "./admin.generated.ts";
import type {
  CheckinRatioMode,
  ContactVisibility,
  Locale,
  UpdateSettingsInput,
  Weekday,
} from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../components/Field.tsx";
import { Loading } from "../../components/Loading.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { useUnsavedChangesWarning } from "../../lib/useUnsavedChangesWarning.ts";
import { uploadWithProgress } from "../../lib/upload.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { useFocusFirstError } from "../../lib/useForm.ts";
import { LOCALES } from "../../i18n/format.ts";
import { LIMITS } from "@flock/shared/limits";
import { GIVING_LIMITS } from "@flock/shared/limits-features";

const WEEKDAYS: Weekday[] = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];
const VISIBILITIES: ContactVisibility[] = ["PRIVATE", "LEADERS", "GROUPS", "MEMBERS"];
const SOCIAL = ["facebook", "instagram", "youtube", "website"] as const;
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];
const MAX_LOGO_BYTES = 10 * 1024 * 1024;

type Scalars = Omit<UpdateSettingsInput, "socialLinks" | "serviceTimes">;
type Draft = { [K in keyof Scalars]-?: NonNullable<Scalars[K]> } & {
  serviceTimes: Array<{ key: number; day: Weekday; time: string; label: string }>;
  socialLinks: Record<(typeof SOCIAL)[number], string>;
};

let nextKey = 1;
function draftFrom(s: AdminSettingsFieldsFragment): Draft {
  return {
    churchName: s.churchName,
    tagline: s.tagline,
    brandColor: s.brandColor,
    timezone: s.timezone,
    locale: s.locale,
    address: s.address,
    phone: s.phone,
    email: s.email,
    allowSignup: s.allowSignup,
    directoryDefaultVisibility: s.directoryDefaultVisibility,
    prayerRequiresApproval: s.prayerRequiresApproval,
    prayerPublicWall: s.prayerPublicWall,
    prayerExpiryDays: s.prayerExpiryDays,
    checkinRatioMode: s.checkinRatioMode,
    statementText: s.statementText,
    serviceTimes: s.serviceTimes.map((t) => ({ key: nextKey++, day: t.day, time: t.time, label: t.label })),
    socialLinks: {
      facebook: s.socialLinks.facebook ?? "",
      instagram: s.socialLinks.instagram ?? "",
      youtube: s.socialLinks.youtube ?? "",
      website: s.socialLinks.website ?? "",
    },
  };
}

function inputFrom(d: Draft): UpdateSettingsInput {
  return { ...d, serviceTimes: d.serviceTimes.map(({ day, time, label }) => ({ day, time, label })) };
}

export function AdminSettingsPage() {
  const { t } = useI18n();
  usePageTitle(t("admin.settings.title"));
  const { data, loading, error } = useAdminSettingsPage();
  const i18n = useI18n();
  if (loading && !data) return <Loading />;
  if (error && !data) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (!data) return null;
  return <SettingsForm settings={data.settings} />;
}

function SettingsForm({ settings }: { settings: AdminSettingsFieldsFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState<Draft>(() => draftFrom(settings));
  const [saved, setSaved] = useState<Draft>(draft);
  const [error, setError] = useState<UiError | null>(null);
  const formRef = useFocusFirstError(error);
  const [notice, setNotice] = useState<string | null>(null);
  const [updateSettings, { loading: saving }] = useUpdateSettings();
  const timeZones = useMemo(() => Intl.supportedValuesOf("timeZone"), []);
  const dirty = JSON.stringify(inputFrom(draft)) !== JSON.stringify(inputFrom(saved));

  useUnsavedChangesWarning(dirty);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setNotice(null);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const fieldError = (name: string) => error?.fieldErrors[name];

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const result = await updateSettings({ variables: { input: inputFrom(draft) } });
      if (result.data) setSaved(draft);
      setNotice(t("admin.settings.saved"));
    } catch (caught) {
      setError(handleError(caught, i18n));
    }
  }

  return (
    <div className="page">
      <h1>{t("admin.settings.title")}</h1>
      <LogoSection settings={settings} />
      <form ref={formRef} className="form" onSubmit={save} noValidate>
        {error && <Alert kind="error">{error.message}</Alert>}
        <fieldset className="card">
          <legend>{t("admin.settings.identity")}</legend>
          <TextField
            label={t("admin.settings.churchName")}
            required
            maxLength={LIMITS.nameMax}
            value={draft.churchName}
            onChange={(e) => set("churchName", e.target.value)}
            error={fieldError("churchName")}
          />
          <TextField
            label={t("admin.settings.tagline")}
            maxLength={LIMITS.taglineMax}
            optionalText={t("common.optional")}
            value={draft.tagline}
            onChange={(e) => set("tagline", e.target.value)}
            error={fieldError("tagline")}
          />
          <div className="color-field">
            <TextField
              label={t("admin.settings.brandColor")}
              value={draft.brandColor}
              placeholder="#2f5d8a"
              hint={t("admin.settings.brandColorHint")}
              onChange={(e) => set("brandColor", e.target.value)}
              error={fieldError("brandColor")}
            />
            <input
              type="color"
              aria-label={t("admin.settings.brandColor")}
              value={/^#[0-9a-f]{6}$/i.test(draft.brandColor) ? draft.brandColor : "#2f5d8a"}
              onChange={(e) => set("brandColor", e.target.value)}
            />
          </div>
        </fieldset>

        <fieldset className="card">
          <legend>{t("admin.settings.region")}</legend>
          <SelectField
            label={t("admin.settings.timezone")}
            value={draft.timezone}
            onChange={(e) => set("timezone", e.target.value)}
            error={fieldError("timezone")}
          >
            {timeZones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replace(/_/g, " ")}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t("admin.settings.locale")}
            value={draft.locale}
            onChange={(e) => set("locale", e.target.value as Locale)}
          >
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {t(`lang.${l}`)}
              </option>
            ))}
          </SelectField>
        </fieldset>

        <fieldset className="card">
          <legend>{t("admin.settings.contact")}</legend>
          <TextAreaField
            label={t("admin.settings.address")}
            rows={3}
            maxLength={LIMITS.addressMax}
            value={draft.address}
            onChange={(e) => set("address", e.target.value)}
            error={fieldError("address")}
          />
          <div className="form__row">
            <TextField
              label={t("admin.settings.phone")}
              type="tel"
              autoComplete="off"
              value={draft.phone}
              onChange={(e) => set("phone", e.target.value)}
              error={fieldError("phone")}
            />
            <TextField
              label={t("admin.settings.email")}
              type="email"
              autoComplete="off"
              value={draft.email}
              onChange={(e) => set("email", e.target.value)}
              error={fieldError("email")}
            />
          </div>
        </fieldset>

        <fieldset className="card">
          <legend>{t("admin.settings.serviceTimes")}</legend>
          {draft.serviceTimes.map((row, i) => (
            <div className="service-row" key={row.key}>
              <SelectField
                label={t("admin.settings.day")}
                value={row.day}
                onChange={(e) =>
                  set(
                    "serviceTimes",
                    draft.serviceTimes.map((r) =>
                      r.key === row.key ? { ...r, day: e.target.value as Weekday } : r,
                    ),
                  )
                }
              >
                {WEEKDAYS.map((d) => (
                  <option key={d} value={d}>
                    {t(`time.weekday.${d}`)}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={t("admin.settings.time")}
                type="time"
                value={row.time}
                onChange={(e) =>
                  set(
                    "serviceTimes",
                    draft.serviceTimes.map((r) => (r.key === row.key ? { ...r, time: e.target.value } : r)),
                  )
                }
                error={fieldError(`serviceTimes.${i}.time`)}
              />
              <TextField
                label={t("admin.settings.label")}
                maxLength={LIMITS.serviceTimeLabelMax}
                value={row.label}
                onChange={(e) =>
                  set(
                    "serviceTimes",
                    draft.serviceTimes.map((r) => (r.key === row.key ? { ...r, label: e.target.value } : r)),
                  )
                }
                error={fieldError(`serviceTimes.${i}.label`)}
              />
              <button
                type="button"
                className="button button--ghost"
                onClick={() =>
                  set(
                    "serviceTimes",
                    draft.serviceTimes.filter((r) => r.key !== row.key),
                  )
                }
              >
                {t("admin.settings.removeServiceTime")}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button button--ghost"
            onClick={() =>
              set("serviceTimes", [
                ...draft.serviceTimes,
                { key: nextKey++, day: "SUNDAY", time: "10:00", label: "" },
              ])
            }
          >
            + {t("admin.settings.addServiceTime")}
          </button>
        </fieldset>

        <fieldset className="card">
          <legend>{t("admin.settings.social")}</legend>
          {SOCIAL.map((name) => (
            <TextField
              key={name}
              label={t(`social.${name}`)}
              type="url"
              placeholder="https://"
              optionalText={t("common.optional")}
              value={draft.socialLinks[name]}
              onChange={(e) => set("socialLinks", { ...draft.socialLinks, [name]: e.target.value })}
              error={fieldError(`socialLinks.${name}`)}
            />
          ))}
        </fieldset>

        <fieldset className="card">
          <legend>{t("admin.settings.members")}</legend>
          <CheckboxField
            label={t("admin.settings.allowSignup")}
            checked={draft.allowSignup}
            onChange={(e) => set("allowSignup", e.target.checked)}
          />
          <SelectField
            label={t("admin.settings.directoryDefault")}
            value={draft.directoryDefaultVisibility}
            onChange={(e) => set("directoryDefaultVisibility", e.target.value as ContactVisibility)}
          >
            {VISIBILITIES.map((v) => (
              <option key={v} value={v}>
                {t(`visibility.${v}`)}
              </option>
            ))}
          </SelectField>
          <CheckboxField
            label={t("admin.settings.prayerApproval")}
            checked={draft.prayerRequiresApproval}
            onChange={(e) => set("prayerRequiresApproval", e.target.checked)}
          />
          <CheckboxField
            label={t("admin.settings.prayerPublicWall")}
            hint={t("admin.settings.prayerPublicWallHint")}
            checked={draft.prayerPublicWall}
            onChange={(e) => set("prayerPublicWall", e.target.checked)}
          />
          <TextField
            label={t("admin.settings.prayerExpiry")}
            type="number"
            min={1}
            max={3650}
            value={String(draft.prayerExpiryDays)}
            onChange={(e) => set("prayerExpiryDays", Number(e.target.value))}
            error={fieldError("prayerExpiryDays")}
          />
          <SelectField
            label={t("admin.settings.checkinRatio")}
            value={draft.checkinRatioMode}
            onChange={(e) => set("checkinRatioMode", e.target.value as CheckinRatioMode)}
          >
            {(["REFUSE", "WARN"] as const).map((mode) => (
              <option key={mode} value={mode}>
                {t(`admin.settings.checkinRatio.${mode}`)}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            label={t("admin.settings.statementText")}
            hint={t("admin.settings.statementTextHint")}
            rows={3}
            maxLength={GIVING_LIMITS.statementTextMax}
            value={draft.statementText}
            onChange={(e) => set("statementText", e.target.value)}
            error={fieldError("statementText")}
          />
        </fieldset>

        <div className="form__footer">
          <button type="submit" className="button" disabled={saving}>
            {saving ? t("common.saving") : t("admin.settings.save")}
          </button>
          {notice && <Alert kind="success">{notice}</Alert>}
          {dirty && !notice && <span className="muted">{t("admin.settings.unsaved")}</span>}
        </div>
      </form>
    </div>
  );
}

function LogoSection({ settings }: { settings: AdminSettingsFieldsFragment }) {
  const i18n = useI18n();
  const { t } = i18n;
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removeLogo, { loading: removing, client }] = useRemoveLogo();

  async function upload(file: File) {
    setError(null);
    // Checked here for a quick answer; the gateway checks again.
    if (!IMAGE_TYPES.includes(file.type)) return setError(t("error.UNSUPPORTED_FILE_TYPE"));
    if (file.size > MAX_LOGO_BYTES) return setError(t("error.PAYLOAD_TOO_LARGE"));
    setProgress(0);
    try {
      await uploadWithProgress<UploadLogoMutation>(UploadLogoDocument, {}, "file", file, setProgress);
      await client.refetchQueries({ include: "active" });
    } catch (caught) {
      setError(handleError(caught, i18n).message);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <section className="card logo-section" aria-labelledby="logo-title">
      <h2 id="logo-title">{t("admin.settings.logo")}</h2>
      {settings.logoOriginal ? (
        <img
          src={settings.logoUrl ?? settings.logoOriginal}
          alt={settings.churchName}
          className="logo-preview"
        />
      ) : (
        <p className="muted">{t("admin.settings.logoNone")}</p>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      {progress !== null && (
        <div className="progress">
          <progress
            max={100}
            value={progress}
            aria-label={t("admin.settings.uploading", { percent: progress })}
          />
          <span aria-live="polite">{t("admin.settings.uploading", { percent: progress })}</span>
        </div>
      )}
      <p className="muted small">{t("admin.settings.logoHint")}</p>
      <div className="actions">
        <label className="button button--ghost file-button">
          {settings.logoOriginal ? t("admin.settings.logoReplace") : t("admin.settings.logoUpload")}
          <input
            ref={input}
            type="file"
            accept={IMAGE_TYPES.join(",")}
            className="visually-hidden"
            disabled={progress !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void upload(file);
            }}
          />
        </label>
        {settings.logoOriginal && (
          <button
            type="button"
            className="button button--ghost"
            disabled={removing}
            onClick={() =>
              void removeLogo()
                .then(() => client.refetchQueries({ include: "active" }))
                .catch((e: unknown) => setError(handleError(e, i18n).message))
            }
          >
            {t("admin.settings.logoRemove")}
          </button>
        )}
      </div>
    </section>
  );
}
