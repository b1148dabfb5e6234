import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import {
  useAdminGivingCampaigns,
  useAdminGivingCreateCampaign,
  useAdminGivingCreatePledge,
  useAdminGivingDeletePledge,
  useAdminGivingUpdateCampaign,
  type AdminGivingCampaignFragment,
} from "./Campaigns.generated.ts";
import { useAdminGivingFunds } from "./AdminGiving.generated.ts";
import type { PledgeCampaignStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { formatCents, parseAmount } from "@flock/shared/money";
import { givingFieldErrors } from "./giving-errors.ts";
import { DonorSearch, type Donor } from "./DonorSearch.tsx";
import { CampaignProgress, percentOf } from "../CampaignProgress.tsx";

type Campaign = AdminGivingCampaignFragment;
const STATUSES: PledgeCampaignStatus[] = ["ACTIVE", "CLOSED"];
const centsText = (cents: number) => (cents / 100).toFixed(2);

/**
 * /admin/giving's campaigns: a goal for one fund over a period, its progress (what was given to the fund
 * in the period), and the pledges toward it. Opened in the drawer: the campaign's fields for finance
 * that keeps them, its pledges, and a pledge recorded for a donor.
 */
export function CampaignsSection({ manage, currency }: { manage: boolean; currency: string }) {
  const { t, locale } = useI18n();
  const [params, setParams] = useSearchParams();
  const { data, loading, refetch } = useAdminGivingCampaigns({ fetchPolicy: "cache-and-network" });
  const campaigns = data?.pledgeCampaigns ?? [];
  const openId = params.get("campaign");
  const opened = campaigns.find((c) => c.id === openId) ?? null;
  const close = () => setParams({});
  const money = (cents: number) => formatCents(cents, currency, locale);
  const columns: Column<Campaign>[] = [
    {
      key: "name",
      header: t("admin.giving.campaign.name"),
      sort: (c) => c.name,
      cell: (c) => (
        <button type="button" className="link-button" onClick={() => setParams({ campaign: c.id })}>
          {c.name}
        </button>
      ),
    },
    {
      key: "period",
      header: t("admin.giving.campaign.period"),
      sort: (c) => c.startsOn,
      cell: (c) => `${c.startsOn} – ${c.endsOn}`,
    },
    {
      key: "progress",
      header: t("admin.giving.campaign.progress"),
      sort: (c) => (c.progressCents ?? 0) / c.goalCents,
      cell: (c) => (
        <CampaignProgress
          label={t("admin.giving.campaign.progressOf", { name: c.name })}
          valueCents={c.progressCents ?? 0}
          goalCents={c.goalCents}
          figure={t("admin.giving.campaign.progressFigure", {
            given: money(c.progressCents ?? 0),
            goal: money(c.goalCents),
            percent: percentOf(c.progressCents ?? 0, c.goalCents),
          })}
        />
      ),
    },
    {
      key: "pledged",
      header: t("admin.giving.campaign.pledged"),
      sort: (c) => c.pledgedCents ?? 0,
      cell: (c) => (
        <span className="money">
          {t("admin.giving.campaign.pledgedFigure", {
            amount: money(c.pledgedCents ?? 0),
            count: c.pledgeCount,
          })}
        </span>
      ),
    },
    {
      key: "status",
      header: t("admin.giving.campaign.status"),
      sort: (c) => c.status,
      cell: (c) => (
        <span className={`badge ${c.status === "ACTIVE" ? "badge--ok" : "badge--neutral"}`}>
          {t(`admin.giving.campaign.status.${c.status}`)}
          {c.showProgress && c.status === "ACTIVE" ? ` · ${t("admin.giving.campaign.public")}` : ""}
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="campaigns-heading">
      <div className="page-head">
        <h2 id="campaigns-heading">{t("admin.giving.campaigns")}</h2>
        {manage && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => setParams({ campaign: "new" })}
          >
            {t("admin.giving.campaign.new")}
          </button>
        )}
      </div>
      {loading && !data ? (
        <p className="muted">{t("admin.giving.loading")}</p>
      ) : (
        <DataTable
          caption={t("admin.giving.campaigns")}
          rows={campaigns}
          rowKey={(c) => c.id}
          rowLabel={(c) => c.name}
          columns={columns}
          empty={<p>{t("admin.giving.campaign.empty")}</p>}
        />
      )}
      <Drawer
        open={(manage && openId === "new") || !!opened}
        title={opened ? opened.name : t("admin.giving.campaign.new")}
        onClose={close}
      >
        {opened?.can.edit || (manage && openId === "new") ? (
          <CampaignForm
            key={openId ?? ""}
            campaign={opened}
            onSaved={() => {
              if (!opened) close();
              void refetch();
            }}
            onCancel={close}
          />
        ) : null}
        {opened && <PledgesPanel campaign={opened} currency={currency} onChanged={() => void refetch()} />}
      </Drawer>
    </section>
  );
}

function CampaignForm({
  campaign,
  onSaved,
  onCancel,
}: {
  campaign: Campaign | null;
  onSaved(): void;
  onCancel(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const funds = useAdminGivingFunds().data?.funds ?? [];
  const year = new Date().getFullYear();
  const [draft, setDraft] = useState({
    name: campaign?.name ?? "",
    description: campaign?.description ?? "",
    fundId: campaign?.fund?.id ?? "",
    goal: campaign ? centsText(campaign.goalCents) : "",
    startsOn: campaign?.startsOn ?? `${year}-01-01`,
    endsOn: campaign?.endsOn ?? `${year}-12-31`,
    showProgress: campaign?.showProgress ?? true,
    status: campaign?.status ?? ("ACTIVE" as PledgeCampaignStatus),
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [create, creating] = useAdminGivingCreateCampaign();
  const [update, updating] = useAdminGivingUpdateCampaign();
  const errors = { ...givingFieldErrors(problem, i18n), ...local };
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const goalCents = parseAmount(draft.goal);
    if (goalCents === null) {
      setLocal({ goalCents: t("admin.giving.gift.amountInvalid") });
      return;
    }
    setLocal({});
    const { goal: _goal, ...rest } = draft;
    const input = { ...rest, name: draft.name.trim(), description: draft.description.trim(), goalCents };
    try {
      if (campaign) await update({ variables: { id: campaign.id, input } });
      else await create({ variables: { input } });
      onSaved();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
      <TextField
        label={t("admin.giving.campaign.name")}
        value={draft.name}
        maxLength={GIVING_LIMITS.campaignNameMax}
        error={errors.name}
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
      />
      <TextAreaField
        label={t("admin.giving.campaign.description")}
        optionalText={t("common.optional")}
        value={draft.description}
        maxLength={GIVING_LIMITS.campaignDescriptionMax}
        error={errors.description}
        rows={3}
        onChange={(e) => setDraft({ ...draft, description: e.target.value })}
      />
      <SelectField
        label={t("admin.giving.campaign.fund")}
        hint={t("admin.giving.campaign.fundHint")}
        value={draft.fundId}
        error={errors.fundId}
        onChange={(e) => setDraft({ ...draft, fundId: e.target.value })}
      >
        <option value="">{t("admin.giving.campaign.chooseFund")}</option>
        {funds.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t("admin.giving.campaign.goal")}
        inputMode="decimal"
        value={draft.goal}
        error={errors.goalCents}
        onChange={(e) => setDraft({ ...draft, goal: e.target.value })}
      />
      <TextField
        label={t("admin.giving.campaign.startsOn")}
        type="date"
        value={draft.startsOn}
        error={errors.startsOn}
        onChange={(e) => setDraft({ ...draft, startsOn: e.target.value })}
      />
      <TextField
        label={t("admin.giving.campaign.endsOn")}
        type="date"
        value={draft.endsOn}
        error={errors.endsOn}
        onChange={(e) => setDraft({ ...draft, endsOn: e.target.value })}
      />
      <CheckboxField
        label={t("admin.giving.campaign.showProgress")}
        hint={t("admin.giving.campaign.showProgressHint")}
        checked={draft.showProgress}
        onChange={(e) => setDraft({ ...draft, showProgress: e.target.checked })}
      />
      <SelectField
        label={t("admin.giving.campaign.status")}
        value={draft.status}
        onChange={(e) => setDraft({ ...draft, status: e.target.value as PledgeCampaignStatus })}
      >
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {t(`admin.giving.campaign.status.${s}`)}
          </option>
        ))}
      </SelectField>
      <FormActions
        submitLabel={t(campaign ? "common.save" : "admin.giving.campaign.create")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}

/** A campaign's pledges, each with what its household has given toward it, and a pledge recorded for a donor. */
function PledgesPanel({
  campaign,
  currency,
  onChanged,
}: {
  campaign: Campaign;
  currency: string;
  onChanged(): void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const money = (cents: number) => formatCents(cents, currency, locale);
  const [donor, setDonor] = useState<Donor | null>(null);
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<UiError | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [create, creating] = useAdminGivingCreatePledge();
  const [remove] = useAdminGivingDeletePledge();
  const errors = { ...givingFieldErrors(problem, i18n), ...local };
  async function record(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const amountCents = parseAmount(amount);
    const missing: Record<string, string> = {};
    if (!donor) missing.personId = t("admin.giving.campaign.chooseDonor");
    if (amountCents === null) missing.amountCents = t("admin.giving.gift.amountInvalid");
    setLocal(missing);
    if (Object.keys(missing).length) return;
    try {
      await create({
        variables: {
          input: { campaignId: campaign.id, personId: donor!.personId, amountCents: amountCents! },
        },
      });
      setDonor(null);
      setAmount("");
      onChanged();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  return (
    <section aria-labelledby="pledges-heading" className="stack">
      <h3 id="pledges-heading">{t("admin.giving.campaign.pledges")}</h3>
      {campaign.pledges.length ? (
        <table className="table">
          <caption className="visually-hidden">{t("admin.giving.campaign.pledges")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.giving.campaign.donor")}</th>
              <th scope="col">{t("admin.giving.campaign.pledgeAmount")}</th>
              <th scope="col">{t("admin.giving.campaign.given")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("admin.giving.campaign.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {campaign.pledges.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.donor?.name ?? "—"}
                  {p.donor?.householdName ? <span className="muted"> · {p.donor.householdName}</span> : null}
                </td>
                <td className="money">{money(p.amountCents)}</td>
                <td className="money">{money(p.givenCents)}</td>
                <td>
                  {p.can.delete && (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        if (window.confirm(t("admin.giving.campaign.removeConfirm")))
                          void remove({ variables: { id: p.id } }).then(onChanged, (caught: unknown) =>
                            setProblem(handleError(caught, i18n)),
                          );
                      }}
                    >
                      {t("admin.giving.campaign.remove", { name: p.donor?.name ?? "" })}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{t("admin.giving.campaign.noPledges")}</p>
      )}
      {campaign.can.pledge && (
        <form className="form" onSubmit={(e) => void record(e)} noValidate>
          <h4>{t("admin.giving.campaign.recordPledge")}</h4>
          {problem && !Object.keys(problem.fieldErrors).length && (
            <Alert kind="error">{problem.message}</Alert>
          )}
          <DonorSearch donor={donor} onChange={setDonor} error={errors.personId} />
          <TextField
            label={t("admin.giving.campaign.pledgeAmount")}
            inputMode="decimal"
            value={amount}
            error={errors.amountCents}
            onChange={(e) => setAmount(e.target.value)}
          />
          <button type="submit" className="button" disabled={creating.loading}>
            {t("admin.giving.campaign.recordPledge")}
          </button>
        </form>
      )}
    </section>
  );
}
