import { useState } from "react";
import { Link } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { CheckboxField, SelectField, TextField } from "../../components/Field.tsx";
import { useFocusFirstError, useForm } from "../../lib/useForm.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";
import { coverFee, formatCents, parseAmount } from "@flock/shared/money";
import type { GiftInterval } from "../../gql/types.ts";
import { useGivePage, useStartGift, type GivePageQuery } from "./give.generated.ts";
import { CampaignProgress, percentOf } from "./CampaignProgress.tsx";
import "./give.css";

// The public giving pages (issue 29): a chunk of their own, light for a visitor's first load. The gift is
// paid on the payment provider's hosted page (a redirect): no provider script and no card field here.

const INTERVALS: GiftInterval[] = ["ONCE", "MONTHLY"];

/** /give: a gift online through the church's payment provider. */
export function GivePage() {
  const { t, locale } = useI18n();
  usePageTitle(t("give.title"));
  const shell = useAppShell();
  const { data, loading } = useGivePage();
  const [start] = useStartGift();
  const viewer = shell.data?.viewer ?? null;
  const options = data?.onlineGiving;
  const form = useForm({ fundId: "", amount: "", interval: "ONCE", email: "" });
  const [coverTheFee, setCoverTheFee] = useState(false);
  const [amountError, setAmountError] = useState<string | null>(null);
  // An amount refused here (before anything is sent) takes the focus as a server's refusal does.
  const formRef = useFocusFirstError(amountError);

  if (loading && !options) return <Loading />;
  const church = shell.data?.settings.churchName ?? "";
  if (!options?.enabled || !options.funds.length) {
    return (
      <section className="container narrow page give">
        <h1>{t("give.title")}</h1>
        <Alert kind="info">{options?.enabled ? t("give.noFunds") : t("give.off")}</Alert>
        <PublicCampaigns campaigns={data?.pledgeCampaigns ?? []} currency={options?.currency ?? "USD"} />
      </section>
    );
  }

  const money = (cents: number) => formatCents(cents, options.currency, locale);
  const fee = { percent: options.feePercent, fixedCents: options.feeFixedCents };
  const fundId = form.values.fundId || options.funds[0]!.id;
  const interval = form.values.interval as GiftInterval;
  const cents = parseAmount(form.values.amount);
  const charge = cents && coverTheFee ? coverFee(cents, fee) : cents;
  const recurring = interval !== "ONCE";
  const signInFirst = recurring && !viewer?.person;
  const fieldCode = (field: string) => form.error?.fieldCodes?.[field];
  const serverAmountError = fieldCode("amountCents") ? t("give.error.amount") : undefined;

  return (
    <section className="container narrow page give">
      <h1>{t("give.title")}</h1>
      <p className="lead">{t("give.intro", { church })}</p>
      <form
        ref={formRef}
        className="form card"
        noValidate
        onSubmit={form.submit(async (values) => {
          setAmountError(null);
          if (!cents) return setAmountError(t("give.error.amount"));
          if ((charge ?? cents) > options.maxCents)
            return setAmountError(t("give.error.tooMuch", { max: money(options.maxCents) }));
          const answer = await start({
            variables: {
              input: {
                fundId,
                amountCents: cents,
                interval,
                coverFee: coverTheFee,
                email: viewer ? null : values.email.trim() || null,
              },
            },
          });
          const url = answer.data?.startGift.url;
          // To the provider's hosted checkout; it sends the donor back to /give/thanks (or /give).
          if (url) window.location.assign(url);
        })}
      >
        {form.error && !Object.keys(form.error.fieldErrors).length && (
          <Alert kind="error">{form.error.message}</Alert>
        )}
        <SelectField
          label={t("give.fund")}
          {...form.bind("fundId")}
          value={fundId}
          error={fieldCode("fundId") ? t("give.error.fund") : undefined}
        >
          {options.funds.map((fund) => (
            <option key={fund.id} value={fund.id}>
              {fund.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t("give.amount", { currency: options.currency })}
          inputMode="decimal"
          autoComplete="transaction-amount"
          required
          hint={t("give.amountHint")}
          {...form.bind("amount")}
          error={amountError ?? serverAmountError}
        />
        <fieldset className="give__interval">
          <legend>{t("give.frequency")}</legend>
          <div className="give__choices">
            {INTERVALS.map((value) => (
              <label key={value} className="give__choice">
                <input
                  type="radio"
                  name="interval"
                  value={value}
                  checked={interval === value}
                  onChange={form.bind("interval").onChange}
                />
                {t(`give.interval.${value}`)}
              </label>
            ))}
          </div>
          {(signInFirst || fieldCode("interval")) && (
            <p className="field__hint">
              {t("give.signInForRecurring")} <Link to="/login?next=%2Fgive">{t("give.signIn")}</Link>
            </p>
          )}
        </fieldset>
        <CheckboxField
          label={t("give.coverFee", {
            fee: cents
              ? money(coverFee(cents, fee) - cents)
              : `${options.feePercent}% + ${money(options.feeFixedCents)}`,
          })}
          hint={t("give.coverFeeHint")}
          checked={coverTheFee}
          onChange={(event) => setCoverTheFee(event.target.checked)}
        />
        {!viewer && (
          <TextField
            label={t("give.email")}
            type="email"
            autoComplete="email"
            maxLength={LIMITS.emailMax}
            optionalText={t("common.optional")}
            {...form.bind("email")}
            error={form.fieldError("email")}
          />
        )}
        {charge ? (
          <p className="give__total" aria-live="polite">
            <strong>
              {t(
                interval === "MONTHLY"
                  ? "give.totalMonthly"
                  : interval === "WEEKLY"
                    ? "give.totalWeekly"
                    : "give.total",
                { total: money(charge) },
              )}
            </strong>
          </p>
        ) : null}
        <p className="muted">{t("give.secure")}</p>
        <button type="submit" className="button" disabled={form.submitting || signInFirst}>
          {form.submitting ? t("give.submitting") : t("give.submit")}
        </button>
      </form>
      <PublicCampaigns campaigns={data?.pledgeCampaigns ?? []} currency={options.currency} />
    </section>
  );
}

/** Campaigns that show their progress publicly: what has been given toward each goal (never who gave). */
function PublicCampaigns({
  campaigns,
  currency,
}: {
  campaigns: GivePageQuery["pledgeCampaigns"];
  currency: string;
}) {
  const { t, locale } = useI18n();
  if (!campaigns.length) return null;
  const money = (cents: number) => formatCents(cents, currency, locale);
  return (
    <section className="give__campaigns" aria-labelledby="give-campaigns">
      <h2 id="give-campaigns">{t("give.campaign.heading")}</h2>
      {campaigns.map((c) => {
        const given = c.progressCents ?? 0;
        return (
          <article key={c.id} className="card">
            <h3>{c.name}</h3>
            {c.description && <p>{c.description}</p>}
            <CampaignProgress
              label={t("give.campaign.progressOf", { name: c.name })}
              valueCents={given}
              goalCents={c.goalCents}
              figure={t("give.campaign.progress", {
                given: money(given),
                goal: money(c.goalCents),
                percent: percentOf(given, c.goalCents),
              })}
            />
          </article>
        );
      })}
    </section>
  );
}

/** /give/thanks: where the provider's hosted checkout returns the giver. */
export function GiveThanksPage() {
  const { t } = useI18n();
  usePageTitle(t("give.thanks.title"));
  const shell = useAppShell();
  return (
    <section className="container narrow page give">
      <h1>{t("give.thanks.title")}</h1>
      <Alert kind="success">{t("give.thanks.body")}</Alert>
      {shell.data?.viewer && (
        <p>
          <Link to="/me/giving">{t("give.thanks.recurring")}</Link>
        </p>
      )}
      <p>
        <Link to="/give">{t("give.thanks.again")}</Link>
      </p>
    </section>
  );
}
