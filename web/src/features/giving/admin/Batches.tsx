import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import {
  useAdminGivingBatches,
  useAdminGivingCreateBatch,
  useAdminGivingUpdateBatch,
  type AdminGivingBatchRowFragment,
} from "./AdminGiving.generated.ts";
import { useAppShell } from "../../../gql/AppShell.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate, todayIn } from "../../../i18n/format.ts";
import { Alert } from "../../../components/Alert.tsx";
import { TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { formatCents, parseAmount } from "@flock/shared/money";
import { givingFieldErrors } from "./giving-errors.ts";

type Batch = AdminGivingBatchRowFragment;

/** Closed batches listed at first (a year of Sundays is 60 of them). */
const CLOSED_PAGE = 10;

/** /admin/giving's batches: newest deposit first, how far each is keyed, and "New batch". */
export function BatchesSection({ currency, manage }: { currency: string; manage: boolean }) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { data, loading } = useAdminGivingBatches({ fetchPolicy: "cache-and-network" });
  const batches = data?.donationBatches ?? [];
  // Open batches first (the work to do), then the latest closed ones; older ones on request.
  const [closedShown, setClosedShown] = useState(CLOSED_PAGE);
  const closed = batches.filter((b) => b.status === "CLOSED");
  const shown = [...batches.filter((b) => b.status !== "CLOSED"), ...closed.slice(0, closedShown)];
  const money = (cents: number) => formatCents(cents, currency, locale);
  const columns: Column<Batch>[] = [
    {
      key: "name",
      header: t("admin.giving.batch.name"),
      sort: (b) => b.name,
      cell: (b) => <Link to={`/admin/giving/batches/${b.id}`}>{b.name}</Link>,
    },
    {
      key: "date",
      header: t("admin.giving.batch.depositDate"),
      sort: (b) => b.depositDate,
      cell: (b) => formatCalendarDate(b.depositDate, locale),
    },
    {
      key: "gifts",
      header: t("admin.giving.batch.giftsColumn"),
      cell: (b) => t("admin.giving.batch.ofCount", { count: b.count, control: b.controlCount }),
    },
    {
      key: "total",
      header: t("admin.giving.batch.totalColumn"),
      sort: (b) => b.totalCents,
      cell: (b) => (
        <span className="money">
          {t("admin.giving.batch.ofTotal", {
            total: money(b.totalCents),
            control: money(b.controlTotalCents),
          })}
        </span>
      ),
    },
    {
      key: "status",
      header: t("admin.giving.batch.status"),
      sort: (b) => b.status,
      cell: (b) =>
        b.status === "CLOSED" ? (
          <span className="badge badge--ok">{t("admin.giving.batch.closedBadge")}</span>
        ) : b.balanced ? (
          <span className="badge badge--neutral">{t("admin.giving.batch.balanced")}</span>
        ) : (
          <span className="badge badge--warn">{t("admin.giving.batch.open")}</span>
        ),
    },
  ];
  return (
    <section aria-labelledby="batches-heading">
      <div className="page-head">
        <h2 id="batches-heading">{t("admin.giving.batches")}</h2>
        {manage && (
          <button type="button" className="button" onClick={() => setParams({ batch: "new" })}>
            {t("admin.giving.batch.new")}
          </button>
        )}
      </div>
      {loading && !data ? (
        <p className="muted">{t("admin.giving.loading")}</p>
      ) : (
        <DataTable
          caption={t("admin.giving.batches")}
          rows={shown}
          rowKey={(b) => b.id}
          rowLabel={(b) => b.name}
          columns={columns}
          empty={<p>{t(manage ? "admin.giving.batch.noneManage" : "admin.giving.batch.none")}</p>}
        />
      )}
      {closed.length > closedShown && (
        <p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => setClosedShown((n) => n + CLOSED_PAGE * 2)}
          >
            {t("admin.giving.batch.showOlder", { count: closed.length - closedShown })}
          </button>
        </p>
      )}
      <Drawer
        open={params.get("batch") === "new"}
        title={t("admin.giving.batch.new")}
        onClose={() => setParams({})}
      >
        <BatchForm
          batch={null}
          onSaved={(made) => void navigate(`/admin/giving/batches/${made.id}`)}
          onCancel={() => setParams({})}
        />
      </Drawer>
    </section>
  );
}

const centsText = (cents: number) => (cents / 100).toFixed(2);

/** A batch's name, deposit date and counted figures: what was counted comes first, then the gifts. */
export function BatchForm({
  batch,
  onSaved,
  onCancel,
}: {
  batch: Pick<Batch, "id" | "name" | "depositDate" | "controlTotalCents" | "controlCount"> | null;
  onSaved(batch: Batch): void;
  onCancel(): void;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const zone = useAppShell().data?.settings.timezone || "UTC";
  const today = todayIn(zone);
  const [draft, setDraft] = useState({
    name: batch?.name ?? t("admin.giving.batch.defaultName", { date: formatCalendarDate(today, locale) }),
    depositDate: batch?.depositDate ?? today,
    controlTotal: batch ? centsText(batch.controlTotalCents) : "",
    controlCount: batch ? String(batch.controlCount) : "",
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [create, creating] = useAdminGivingCreateBatch();
  const [update, updating] = useAdminGivingUpdateBatch();
  const set = (key: keyof typeof draft, value: string) => setDraft({ ...draft, [key]: value });
  const errors = { ...givingFieldErrors(problem, i18n), ...local };
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    // A counted total of nothing is allowed (an empty plate); anything else must be an amount.
    const controlTotalCents = draft.controlTotal.trim() === "0" ? 0 : parseAmount(draft.controlTotal);
    const controlCount = /^\d{1,5}$/.test(draft.controlCount.trim()) ? Number(draft.controlCount) : null;
    const refused: Record<string, string> = {};
    if (controlTotalCents === null) refused.controlTotalCents = t("admin.giving.gift.amountInvalid");
    if (controlCount === null) refused.controlCount = t("admin.giving.batch.countInvalid");
    setLocal(refused);
    if (Object.keys(refused).length) return;
    const input = {
      name: draft.name.trim(),
      depositDate: draft.depositDate,
      controlTotalCents: controlTotalCents!,
      controlCount: controlCount!,
    };
    try {
      onSaved(
        batch
          ? (await update({ variables: { id: batch.id, input } })).data!.updateDonationBatch
          : (await create({ variables: { input } })).data!.createDonationBatch,
      );
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
      <p className="muted">{t("admin.giving.batch.formHint")}</p>
      <TextField
        label={t("admin.giving.batch.name")}
        value={draft.name}
        maxLength={GIVING_LIMITS.batchNameMax}
        error={errors.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <TextField
        label={t("admin.giving.batch.depositDate")}
        type="date"
        value={draft.depositDate}
        error={errors.depositDate}
        onChange={(e) => set("depositDate", e.target.value)}
      />
      <TextField
        label={t("admin.giving.batch.controlTotal")}
        inputMode="decimal"
        autoComplete="off"
        value={draft.controlTotal}
        error={errors.controlTotalCents}
        onChange={(e) => set("controlTotal", e.target.value)}
      />
      <TextField
        label={t("admin.giving.batch.controlCount")}
        inputMode="numeric"
        autoComplete="off"
        value={draft.controlCount}
        error={errors.controlCount}
        onChange={(e) => set("controlCount", e.target.value)}
      />
      <FormActions
        submitLabel={t(batch ? "common.save" : "admin.giving.batch.start")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}
