import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import {
  useAdminGivingCreateFund,
  useAdminGivingFunds,
  useAdminGivingUpdateFund,
  type AdminGivingFundFragment,
} from "./AdminGiving.generated.ts";
import type { FundVisibility } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { givingFieldErrors } from "./giving-errors.ts";

type Fund = AdminGivingFundFragment;
const VISIBILITIES: FundVisibility[] = ["PUBLIC", "HIDDEN", "CLOSED"];
const BADGE: Record<FundVisibility, string> = {
  PUBLIC: "badge--ok",
  HIDDEN: "badge--neutral",
  CLOSED: "badge--danger",
};

/** /admin/giving's funds: what gifts go to, whether they are deductible, and where they are offered. */
export function FundsSection({ manage }: { manage: boolean }) {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const { data, loading, refetch } = useAdminGivingFunds({ fetchPolicy: "cache-and-network" });
  const funds = data?.funds ?? [];
  const openId = params.get("fund");
  const editing = funds.find((f) => f.id === openId) ?? null;
  const close = () => setParams({});
  const columns: Column<Fund>[] = [
    {
      key: "name",
      header: t("admin.giving.fund.name"),
      sort: (f) => f.name,
      cell: (f) =>
        f.can.edit ? (
          <button type="button" className="link-button" onClick={() => setParams({ fund: f.id })}>
            {f.name}
          </button>
        ) : (
          f.name
        ),
    },
    {
      key: "deductible",
      header: t("admin.giving.fund.deductibleColumn"),
      sort: (f) => (f.deductible ? 1 : 0),
      cell: (f) => t(f.deductible ? "admin.giving.fund.deductibleYes" : "admin.giving.fund.deductibleNo"),
    },
    {
      key: "visibility",
      header: t("admin.giving.fund.visibility"),
      sort: (f) => f.visibility,
      cell: (f) => (
        <span className={`badge ${BADGE[f.visibility]}`}>
          {t(`admin.giving.fund.visibility.${f.visibility}`)}
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="funds-heading">
      <div className="page-head">
        <h2 id="funds-heading">{t("admin.giving.funds")}</h2>
        {manage && (
          <button type="button" className="button button--ghost" onClick={() => setParams({ fund: "new" })}>
            {t("admin.giving.funds.new")}
          </button>
        )}
      </div>
      {loading && !data ? (
        <p className="muted">{t("admin.giving.loading")}</p>
      ) : (
        <DataTable
          caption={t("admin.giving.funds")}
          rows={funds}
          rowKey={(f) => f.id}
          rowLabel={(f) => f.name}
          columns={columns}
          empty={<p>{t("admin.giving.funds.empty")}</p>}
        />
      )}
      <Drawer
        open={manage && (openId === "new" || !!editing)}
        title={editing ? editing.name : t("admin.giving.funds.new")}
        onClose={close}
      >
        <FundForm
          key={openId ?? ""}
          fund={editing}
          onSaved={() => {
            close();
            void refetch();
          }}
          onCancel={close}
        />
      </Drawer>
    </section>
  );
}

function FundForm({ fund, onSaved, onCancel }: { fund: Fund | null; onSaved(): void; onCancel(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState({
    name: fund?.name ?? "",
    description: fund?.description ?? "",
    deductible: fund?.deductible ?? true,
    visibility: fund?.visibility ?? ("PUBLIC" as FundVisibility),
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, creating] = useAdminGivingCreateFund();
  const [update, updating] = useAdminGivingUpdateFund();
  const errors = givingFieldErrors(problem, i18n);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input = { ...draft, name: draft.name.trim(), description: draft.description.trim() };
    try {
      if (fund) await update({ variables: { id: fund.id, input } });
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
        label={t("admin.giving.fund.name")}
        value={draft.name}
        maxLength={GIVING_LIMITS.fundNameMax}
        error={errors.name}
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
      />
      <TextAreaField
        label={t("admin.giving.fund.description")}
        optionalText={t("common.optional")}
        value={draft.description}
        maxLength={GIVING_LIMITS.fundDescriptionMax}
        error={errors.description}
        rows={3}
        onChange={(e) => setDraft({ ...draft, description: e.target.value })}
      />
      <CheckboxField
        label={t("admin.giving.fund.deductible")}
        hint={t("admin.giving.fund.deductibleHint")}
        checked={draft.deductible}
        onChange={(e) => setDraft({ ...draft, deductible: e.target.checked })}
      />
      <SelectField
        label={t("admin.giving.fund.visibility")}
        value={draft.visibility}
        hint={t(`admin.giving.fund.visibilityHint.${draft.visibility}`)}
        onChange={(e) => setDraft({ ...draft, visibility: e.target.value as FundVisibility })}
      >
        {VISIBILITIES.map((v) => (
          <option key={v} value={v}>
            {t(`admin.giving.fund.visibility.${v}`)}
          </option>
        ))}
      </SelectField>
      <FormActions
        submitLabel={t(fund ? "common.save" : "admin.giving.funds.create")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}
