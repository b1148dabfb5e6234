import { forwardRef, useImperativeHandle, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import {
  useAdminGivingCreateGift,
  useAdminGivingUpdateGift,
  type AdminGivingFundFragment,
  type AdminGivingGiftFragment,
} from "./AdminGiving.generated.ts";
import type { DonationMethod } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextField } from "../../../components/Field.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { focusFirstError } from "../../../lib/useForm.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { formatCents, parseAmount, sumCents } from "@flock/shared/money";
import { DonorSearch, type Donor } from "./DonorSearch.tsx";
import { givingFieldErrors } from "./giving-errors.ts";

export const METHODS: DonationMethod[] = ["CASH", "CHEQUE", "CARD", "BANK_TRANSFER", "ONLINE"];

/** What the next gift starts from: a batch of cheques to the general fund is keyed without choosing each time. */
export interface GiftDefaults {
  fundId: string;
  method: DonationMethod;
}

export interface GiftFormHandle {
  /** Put the cursor in the donor field (a new gift starts there). */
  focus(): void;
}

type SplitDraft = { fundId: string; amount: string };

const centsText = (cents: number) => (cents / 100).toFixed(2);

/**
 * One gift of a batch, keyed fast: donor, amount, fund, method (and a cheque's number), Enter to save
 * from any field, and the next gift starts with the cursor in the donor field, the same fund and method.
 * "Split across funds" gives each fund its amount; the amounts must add up to the gift.
 */
export const GiftForm = forwardRef<
  GiftFormHandle,
  {
    batchId: string;
    date: string;
    currency: string;
    funds: AdminGivingFundFragment[];
    defaults: GiftDefaults;
    /** The gift being corrected; null for a new one. */
    gift: AdminGivingGiftFragment | null;
    onSaved(saved: AdminGivingGiftFragment, defaults: GiftDefaults): void;
    onCancel(): void;
  }
>(function GiftForm({ batchId, date, currency, funds, defaults, gift, onSaved, onCancel }, ref) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const donorInput = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => donorInput.current?.focus() }), []);
  const [donor, setDonor] = useState<Donor | null>(gift?.donor ?? null);
  const [individual, setIndividual] = useState(gift?.individual ?? false);
  const [amount, setAmount] = useState(gift ? centsText(gift.amountCents) : "");
  const [method, setMethod] = useState<DonationMethod>(gift?.method ?? defaults.method);
  const [chequeNumber, setChequeNumber] = useState(gift?.chequeNumber ?? "");
  const [splits, setSplits] = useState<SplitDraft[]>(
    gift?.splits.map((s) => ({ fundId: s.fund.id, amount: centsText(s.amountCents) })) ?? [
      { fundId: defaults.fundId, amount: "" },
    ],
  );
  const [problem, setProblem] = useState<UiError | null>(null);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [create, creating] = useAdminGivingCreateGift();
  const [update, updating] = useAdminGivingUpdateGift();
  const split = splits.length > 1;
  const errors = { ...givingFieldErrors(problem, i18n), ...localErrors };
  const amountCents = parseAmount(amount);
  const splitCents = splits.map((s) => parseAmount(s.amount));
  const splitLeft =
    amountCents !== null && splitCents.every((c) => c !== null)
      ? amountCents - sumCents(splitCents as number[])
      : null;

  const setSplit = (index: number, change: Partial<SplitDraft>) =>
    setSplits((current) => current.map((s, i) => (i === index ? { ...s, ...change } : s)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const local: Record<string, string> = {};
    if (amountCents === null) local.amountCents = t("admin.giving.gift.amountInvalid");
    if (split && splitCents.some((c) => c === null)) local.splits = t("admin.giving.gift.amountInvalid");
    else if (split && splitLeft !== 0) local.splits = t("admin.giving.error.splits_sum");
    setLocalErrors(local);
    if (Object.keys(local).length) {
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    const input = {
      batchId,
      personId: donor?.personId ?? null,
      individual: donor ? individual : false,
      date,
      amountCents: amountCents!,
      method,
      chequeNumber: method === "CHEQUE" ? chequeNumber.trim() : "",
      ...(split
        ? { splits: splits.map((s, i) => ({ fundId: s.fundId, amountCents: splitCents[i]! })) }
        : { fundId: splits[0]!.fundId }),
    };
    try {
      const saved = gift
        ? (await update({ variables: { id: gift.id, input } })).data!.updateDonation
        : (await create({ variables: { input } })).data!.createDonation;
      onSaved(saved, { fundId: splits[0]!.fundId, method });
    } catch (caught) {
      setProblem(handleError(caught, i18n));
      requestAnimationFrame(() => focusFirstError(form.current));
    }
  }

  // Enter saves from any field, a <select> and a checkbox included (the browser submits only from text).
  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    const target = event.target as HTMLElement;
    if (
      event.key === "Enter" &&
      (target instanceof HTMLSelectElement ||
        (target instanceof HTMLInputElement && target.type === "checkbox"))
    ) {
      event.preventDefault();
      form.current?.requestSubmit();
    }
  }

  const fundOptions = funds.map((fund) => (
    <option key={fund.id} value={fund.id}>
      {fund.name}
    </option>
  ));
  return (
    <form
      ref={form}
      className="form gift-form"
      aria-label={t(gift ? "admin.giving.gift.editTitle" : "admin.giving.gift.newTitle")}
      onSubmit={(e) => void submit(e)}
      onKeyDown={onKeyDown}
      noValidate
    >
      {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
      <div className="gift-form__row">
        <DonorSearch ref={donorInput} donor={donor} onChange={setDonor} error={errors.person} />
        <TextField
          label={t("admin.giving.gift.amount", { currency })}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          error={errors.amountCents}
          onChange={(e) => setAmount(e.target.value)}
        />
        {!split && (
          <SelectField
            label={t("admin.giving.gift.fund")}
            value={splits[0]!.fundId}
            error={errors.splits}
            onChange={(e) => setSplit(0, { fundId: e.target.value })}
          >
            {fundOptions}
          </SelectField>
        )}
        <SelectField
          label={t("admin.giving.gift.method")}
          value={method}
          error={errors.method}
          onChange={(e) => setMethod(e.target.value as DonationMethod)}
        >
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {t(`admin.giving.method.${m}`)}
            </option>
          ))}
        </SelectField>
        {method === "CHEQUE" && (
          <TextField
            label={t("admin.giving.gift.chequeNumber")}
            optionalText={t("common.optional")}
            autoComplete="off"
            value={chequeNumber}
            maxLength={GIVING_LIMITS.chequeNumberMax}
            error={errors.chequeNumber}
            onChange={(e) => setChequeNumber(e.target.value)}
          />
        )}
      </div>
      {donor && (
        <CheckboxField
          label={t("admin.giving.gift.individual")}
          checked={individual}
          onChange={(e) => setIndividual(e.target.checked)}
        />
      )}
      {split && (
        <fieldset className="gift-form__splits">
          <legend>{t("admin.giving.gift.splits")}</legend>
          {splits.map((s, i) => (
            <div className="gift-form__split" key={i}>
              <SelectField
                label={t("admin.giving.gift.splitFund", { n: i + 1 })}
                value={s.fundId}
                onChange={(e) => setSplit(i, { fundId: e.target.value })}
              >
                {fundOptions}
              </SelectField>
              <TextField
                label={t("admin.giving.gift.splitAmount", { n: i + 1 })}
                inputMode="decimal"
                autoComplete="off"
                value={s.amount}
                onChange={(e) => setSplit(i, { amount: e.target.value })}
              />
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => setSplits((current) => current.filter((_, j) => j !== i))}
              >
                {t("admin.giving.gift.removeSplit")}
              </button>
            </div>
          ))}
          <p className={errors.splits ? "field__error" : "muted"} aria-live="polite">
            {errors.splits ??
              (splitLeft === null
                ? t("admin.giving.gift.splitHint")
                : t("admin.giving.gift.splitLeft", { amount: formatCents(splitLeft, currency, locale) }))}
          </p>
        </fieldset>
      )}
      <div className="actions">
        <button type="submit" className="button" disabled={creating.loading || updating.loading}>
          {creating.loading || updating.loading
            ? t("common.saving")
            : t(gift ? "admin.giving.gift.save" : "admin.giving.gift.add")}
        </button>
        {splits.length < GIVING_LIMITS.donationSplitsMax && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() =>
              setSplits((current) => [
                ...(current.length === 1
                  ? [{ ...current[0]!, amount: current[0]!.amount || amount }]
                  : current),
                {
                  fundId: funds.find((f) => !current.some((s) => s.fundId === f.id))?.id ?? funds[0]!.id,
                  amount: "",
                },
              ])
            }
          >
            {t("admin.giving.gift.addSplit")}
          </button>
        )}
        {gift && (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("common.cancel")}
          </button>
        )}
      </div>
      <p className="muted gift-form__keys">{t("admin.giving.gift.keysHint")}</p>
    </form>
  );
});
