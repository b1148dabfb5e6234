import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import {
  useAdminGivingAccess,
  useAdminGivingBatch,
  useAdminGivingBatchReport,
  useAdminGivingCloseBatch,
  useAdminGivingDeleteBatch,
  useAdminGivingDeleteGift,
  useAdminGivingFunds,
  useAdminGivingReopenBatch,
  type AdminGivingGiftFragment,
} from "./AdminGiving.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { formatCents } from "@flock/shared/money";
import { NotFoundPage } from "../../errors/NotFoundPage.tsx";
import { BatchForm } from "./Batches.tsx";
import { GiftForm, type GiftDefaults, type GiftFormHandle } from "./GiftForm.tsx";
import { givingFieldErrors } from "./giving-errors.ts";

/**
 * /admin/giving/batches/:id — a batch keyed in: the counted figures beside what is entered so far (and
 * the difference), the gift form for the keyboard, the gifts as keyed, and closing once they match. A
 * closed batch shows its gifts locked; reopening asks why.
 */
export function AdminGivingBatchPage() {
  const { id = "" } = useParams();
  const i18n = useI18n();
  const { t, locale } = i18n;
  const navigate = useNavigate();
  const access = useAdminGivingAccess().data?.givingAccess;
  const { data, loading, error, refetch } = useAdminGivingBatch({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const funds = useAdminGivingFunds().data?.funds ?? [];
  const [closeBatch, closing] = useAdminGivingCloseBatch();
  const [deleteBatch] = useAdminGivingDeleteBatch();
  const [deleteGift] = useAdminGivingDeleteGift();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [editing, setEditing] = useState<AdminGivingGiftFragment | null>(null);
  const [entry, setEntry] = useState(0);
  const [defaults, setDefaults] = useState<GiftDefaults | null>(null);
  const [drawer, setDrawer] = useState<"edit" | "reopen" | null>(null);
  const giftForm = useRef<GiftFormHandle>(null);
  const batch = data?.donationBatch;
  usePageTitle(batch?.name ?? t("admin.giving.batch.title"));
  // Each saved gift starts the next one with the cursor in the donor field.
  useEffect(() => {
    if (entry > 0) giftForm.current?.focus();
  }, [entry]);

  if (error) {
    if (handleError(error, i18n).code === "NOT_FOUND") return <NotFoundPage />;
    return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  }
  if (loading && !data) return <Loading />;
  if (!batch || !access) return loading ? <Loading /> : <NotFoundPage />;

  const currency = access.currency;
  const money = (cents: number) => formatCents(cents, currency, locale);
  const open = batch.status === "OPEN";
  const openFunds = funds.filter((f) => f.visibility !== "CLOSED");
  const giftDefaults: GiftDefaults = defaults ?? {
    fundId: openFunds[0]?.id ?? "",
    method: "CASH",
  };
  const difference = batch.controlTotalCents - batch.totalCents;
  const countLeft = batch.controlCount - batch.count;

  async function removeGift(gift: AdminGivingGiftFragment) {
    setNotice(null);
    try {
      await deleteGift({ variables: { id: gift.id } });
      await refetch();
      setNotice({
        kind: "success",
        text: t("admin.giving.gift.removed", { amount: money(gift.amountCents) }),
      });
    } catch (caught) {
      setNotice({ kind: "error", text: handleError(caught, i18n).message });
    }
  }

  async function close() {
    setNotice(null);
    try {
      await closeBatch({ variables: { id } });
      await refetch();
      setNotice({ kind: "success", text: t("admin.giving.batch.closed") });
    } catch (caught) {
      const problem = handleError(caught, i18n);
      setNotice({ kind: "error", text: givingFieldErrors(problem, i18n).status ?? problem.message });
    }
  }

  const columns: Column<AdminGivingGiftFragment>[] = [
    {
      key: "n",
      header: t("admin.giving.gift.number"),
      cell: (gift) => batch.donations.indexOf(gift) + 1,
    },
    {
      key: "donor",
      header: t("admin.giving.gift.donor"),
      sort: (gift) => gift.donor?.name ?? "",
      cell: (gift) =>
        gift.donor ? (
          <>
            {gift.donor.name}
            {gift.donor.householdName && !gift.individual && (
              <span className="muted"> · {gift.donor.householdName}</span>
            )}
          </>
        ) : (
          <span className="muted">{t("admin.giving.gift.anonymous")}</span>
        ),
    },
    {
      key: "amount",
      header: t("admin.giving.gift.amountColumn"),
      sort: (gift) => gift.amountCents,
      cell: (gift) => <span className="money">{money(gift.amountCents)}</span>,
    },
    {
      key: "funds",
      header: t("admin.giving.gift.fund"),
      cell: (gift) =>
        gift.splits.length === 1
          ? gift.splits[0]!.fund.name
          : gift.splits.map((s) => `${s.fund.name} ${money(s.amountCents)}`).join(" · "),
    },
    {
      key: "method",
      header: t("admin.giving.gift.method"),
      sort: (gift) => gift.method,
      cell: (gift) =>
        gift.chequeNumber
          ? t("admin.giving.gift.cheque", { number: gift.chequeNumber })
          : t(`admin.giving.method.${gift.method}`),
    },
    {
      key: "actions",
      header: t("admin.giving.gift.actions"),
      cell: (gift) =>
        gift.can.edit && (
          <span className="row-actions">
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => {
                setEditing(gift);
                setEntry((n) => n + 1);
              }}
            >
              {t("admin.giving.gift.edit")}
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => void removeGift(gift)}
            >
              {t("admin.giving.gift.remove")}
            </button>
          </span>
        ),
    },
  ];

  return (
    <section className="giving-batch">
      <p className="breadcrumb">
        <Link to="/admin/giving">{t("admin.giving.title")}</Link>
      </p>
      <div className="page-head">
        <h1>{batch.name}</h1>
        <span className={`badge ${open ? "badge--warn" : "badge--ok"}`}>
          {t(open ? "admin.giving.batch.open" : "admin.giving.batch.closedBadge")}
        </span>
      </div>
      <p className="muted">
        {t("admin.giving.batch.deposit", { date: formatCalendarDate(batch.depositDate, locale) })}
      </p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {!open && batch.closedAt && <Alert kind="info">{t("admin.giving.batch.locked")}</Alert>}
      {batch.reopenReason && open && (
        <Alert kind="warning">
          {t("admin.giving.batch.reopenedBecause", { reason: batch.reopenReason })}
        </Alert>
      )}

      <dl className="batch-figures" aria-live="polite">
        <div>
          <dt>{t("admin.giving.batch.counted")}</dt>
          <dd>
            {money(batch.controlTotalCents)}
            <span className="muted">{t("admin.giving.batch.gifts", { count: batch.controlCount })}</span>
          </dd>
        </div>
        <div>
          <dt>{t("admin.giving.batch.entered")}</dt>
          <dd data-testid="batch-entered">
            {money(batch.totalCents)}
            <span className="muted">{t("admin.giving.batch.gifts", { count: batch.count })}</span>
          </dd>
        </div>
        <div className={batch.balanced ? "batch-figures--ok" : "batch-figures--off"}>
          <dt>{t("admin.giving.batch.difference")}</dt>
          <dd data-testid="batch-difference">
            {batch.balanced
              ? t("admin.giving.batch.balanced")
              : t("admin.giving.batch.left", { amount: money(difference), count: countLeft })}
          </dd>
        </div>
      </dl>

      <div className="actions">
        {batch.can.close && (
          <button type="button" className="button" disabled={closing.loading} onClick={() => void close()}>
            {t("admin.giving.batch.close")}
          </button>
        )}
        {open && batch.can.edit && !batch.balanced && (
          <span className="muted">{t("admin.giving.batch.closeWhenBalanced")}</span>
        )}
        {batch.can.edit && (
          <button type="button" className="button button--ghost" onClick={() => setDrawer("edit")}>
            {t("admin.giving.batch.edit")}
          </button>
        )}
        {batch.can.reopen && (
          <button type="button" className="button button--ghost" onClick={() => setDrawer("reopen")}>
            {t("admin.giving.batch.reopen")}
          </button>
        )}
        {batch.can.delete && (
          <button
            type="button"
            className="button button--ghost"
            onClick={async () => {
              try {
                await deleteBatch({ variables: { id } });
                void navigate("/admin/giving");
              } catch (caught) {
                setNotice({ kind: "error", text: handleError(caught, i18n).message });
              }
            }}
          >
            {t("admin.giving.batch.delete")}
          </button>
        )}
      </div>

      {open && batch.can.edit && openFunds.length > 0 && (
        <section className="card" aria-labelledby="gift-form-title">
          <h2 id="gift-form-title">
            {t(editing ? "admin.giving.gift.editTitle" : "admin.giving.gift.newTitle")}
          </h2>
          <GiftForm
            key={entry}
            ref={giftForm}
            batchId={batch.id}
            date={batch.depositDate}
            currency={currency}
            funds={openFunds}
            defaults={giftDefaults}
            gift={editing}
            onSaved={(saved, next) => {
              setDefaults(next);
              setEditing(null);
              setEntry((n) => n + 1);
              setNotice({
                kind: "success",
                text: t("admin.giving.gift.saved", {
                  amount: money(saved.amountCents),
                  donor: saved.donor?.name ?? t("admin.giving.gift.anonymous"),
                }),
              });
              void refetch();
            }}
            onCancel={() => {
              setEditing(null);
              setEntry((n) => n + 1);
            }}
          />
        </section>
      )}
      {open && batch.can.edit && openFunds.length === 0 && (
        <Alert kind="info">
          {t("admin.giving.batch.noFunds")}{" "}
          <Link to="/admin/giving?fund=new">{t("admin.giving.funds.new")}</Link>
        </Alert>
      )}

      <h2>{t("admin.giving.batch.giftsTitle")}</h2>
      <DataTable
        caption={t("admin.giving.batch.giftsTitle")}
        rows={batch.donations}
        rowKey={(gift) => gift.id}
        rowLabel={(gift) => gift.donor?.name ?? t("admin.giving.gift.anonymous")}
        columns={columns}
        empty={<p>{t(open ? "admin.giving.batch.emptyOpen" : "admin.giving.batch.empty")}</p>}
      />

      {access.view && batch.count > 0 && (
        <DepositSlip
          batchId={batch.id}
          currency={currency}
          version={batch.donations
            .map((d) => `${d.id}:${d.method}:${d.splits.map((x) => `${x.fund.id}=${x.amountCents}`).join()}`)
            .join(";")}
        />
      )}

      <Drawer
        open={drawer !== null}
        title={t(drawer === "reopen" ? "admin.giving.batch.reopen" : "admin.giving.batch.edit")}
        onClose={() => setDrawer(null)}
      >
        {drawer === "edit" && (
          <BatchForm
            batch={batch}
            onSaved={() => {
              setDrawer(null);
              void refetch();
            }}
            onCancel={() => setDrawer(null)}
          />
        )}
        {drawer === "reopen" && (
          <ReopenForm
            batchId={batch.id}
            onDone={() => {
              setDrawer(null);
              setNotice({ kind: "success", text: t("admin.giving.batch.reopened") });
              void refetch();
            }}
            onCancel={() => setDrawer(null)}
          />
        )}
      </Drawer>
    </section>
  );
}

/** Opening a closed batch again: the reason is kept with it. */
function ReopenForm({ batchId, onDone, onCancel }: { batchId: string; onDone(): void; onCancel(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<UiError | null>(null);
  const [reopen, reopening] = useAdminGivingReopenBatch();
  const errors = givingFieldErrors(problem, i18n);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      await reopen({ variables: { id: batchId, reason: reason.trim() } });
      onDone();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && !Object.keys(errors).length && <Alert kind="error">{problem.message}</Alert>}
      <p>{t("admin.giving.batch.reopenHint")}</p>
      <TextField
        label={t("admin.giving.batch.reopenReason")}
        value={reason}
        maxLength={GIVING_LIMITS.reopenReasonMax}
        error={errors.reason ?? errors.reopenReason}
        onChange={(e) => setReason(e.target.value)}
        autoFocus
      />
      <FormActions
        submitLabel={t("admin.giving.batch.reopen")}
        busy={reopening.loading}
        onCancel={onCancel}
      />
    </form>
  );
}

/** The batch added up by fund and by method, as the deposit slip and the books need it. */
function DepositSlip({ batchId, currency, version }: { batchId: string; currency: string; version: string }) {
  const { t, locale } = useI18n();
  const { data, refetch } = useAdminGivingBatchReport({
    variables: { batchId },
    fetchPolicy: "cache-and-network",
  });
  // The slip follows each gift keyed or removed (`version`: the batch's figures and gifts).
  const [seen, setSeen] = useState(version);
  useEffect(() => {
    if (version === seen) return;
    setSeen(version);
    void refetch().catch(() => undefined);
  }, [version, seen, refetch]);
  const report = data?.givingBatchReport;
  if (!report) return null;
  const money = (cents: number) => formatCents(cents, currency, locale);
  return (
    <section aria-labelledby="slip-heading" className="deposit-slip">
      <h2 id="slip-heading">{t("admin.giving.slip.title")}</h2>
      <div className="deposit-slip__tables">
        <table className="table">
          <caption>{t("admin.giving.slip.byFund")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.giving.gift.fund")}</th>
              <th scope="col">{t("admin.giving.slip.gifts")}</th>
              <th scope="col">{t("admin.giving.gift.amountColumn")}</th>
            </tr>
          </thead>
          <tbody>
            {report.byFund.map((row) => (
              <tr key={row.fund.id}>
                <td>{row.fund.name}</td>
                <td>{row.gifts}</td>
                <td className="money">{money(row.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="table">
          <caption>{t("admin.giving.slip.byMethod")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.giving.gift.method")}</th>
              <th scope="col">{t("admin.giving.slip.gifts")}</th>
              <th scope="col">{t("admin.giving.gift.amountColumn")}</th>
            </tr>
          </thead>
          <tbody>
            {report.byMethod.map((row) => (
              <tr key={row.method}>
                <td>{t(`admin.giving.method.${row.method}`)}</td>
                <td>{row.gifts}</td>
                <td className="money">{money(row.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
