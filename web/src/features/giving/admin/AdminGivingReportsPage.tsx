import { useState } from "react";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminGivingDonationsCsvDocument,
  AdminGivingSummaryCsvDocument,
  useAdminGivingAccess,
  useAdminGivingFirstTime,
  useAdminGivingLapsed,
  type AdminGivingUnitFragment,
} from "./AdminGiving.generated.ts";
import { useAppShell } from "../../../gql/AppShell.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate, todayIn } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { SelectField, TextField } from "../../../components/Field.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { formatCents } from "@flock/shared/money";
import { downloadCsv, GivingNav } from "./GivingNav.tsx";
import { givingFieldErrors } from "./giving-errors.ts";
import { StatementRuns } from "./StatementRuns.tsx";

/**
 * /admin/giving/reports — for a period: the giving units who gave for the first time, those who have
 * stopped, and the gifts (or, for giving.view_summary, only the totals) as CSV.
 */
export function AdminGivingReportsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.giving.reports.title"));
  const zone = useAppShell().data?.settings.timezone || "UTC";
  const today = todayIn(zone);
  const [period, setPeriod] = useState({ from: `${today.slice(0, 4)}-01-01`, to: today });
  const { data, loading, error } = useAdminGivingAccess();
  if (error) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (loading || !data) return <Loading />;
  const access = data.givingAccess;
  return (
    <div className="admin-giving">
      <h1>{t("admin.giving.reports.title")}</h1>
      <GivingNav view={access.view} manage={access.manage} />
      <fieldset className="giving-period-set">
        <legend>{t("admin.giving.reports.period")}</legend>
        <div className="giving-period">
          <TextField
            label={t("admin.giving.reports.from")}
            type="date"
            value={period.from}
            onChange={(e) => setPeriod({ ...period, from: e.target.value })}
          />
          <TextField
            label={t("admin.giving.reports.to")}
            type="date"
            value={period.to}
            onChange={(e) => setPeriod({ ...period, to: e.target.value })}
          />
        </div>
      </fieldset>
      <Exports from={period.from} to={period.to} view={access.view} />
      {access.view && <StatementRuns from={period.from} to={period.to} />}
      {access.view && (
        <>
          <FirstTime from={period.from} to={period.to} currency={access.currency} />
          <Lapsed currency={access.currency} />
        </>
      )}
    </div>
  );
}

function Exports({ from, to, view }: { from: string; to: string; view: boolean }) {
  const i18n = useI18n();
  const { t } = i18n;
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  async function download(kind: "gifts" | "totals") {
    setBusy(true);
    setNotice(null);
    try {
      const csv =
        kind === "gifts"
          ? (
              await client.query({
                query: AdminGivingDonationsCsvDocument,
                variables: { from, to },
                fetchPolicy: "network-only",
              })
            ).data!.givingDonationsCsv
          : (
              await client.query({
                query: AdminGivingSummaryCsvDocument,
                variables: { from, to },
                fetchPolicy: "network-only",
              })
            ).data!.givingSummaryCsv;
      downloadCsv(csv, `${kind}-${from}-${to}.csv`);
    } catch (caught) {
      const problem = handleError(caught, i18n);
      setNotice({ kind: "error", text: givingFieldErrors(problem, i18n).to ?? problem.message });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="exports-heading">
      <h2 id="exports-heading">{t("admin.giving.reports.exports")}</h2>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <div className="actions">
        {view && (
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => void download("gifts")}
          >
            {t("admin.giving.reports.giftsCsv")}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          onClick={() => void download("totals")}
        >
          {t("admin.giving.reports.totalsCsv")}
        </button>
      </div>
      <p className="muted">
        {t(view ? "admin.giving.reports.exportsHint" : "admin.giving.reports.totalsHint")}
      </p>
    </section>
  );
}

function useUnitColumns(currency: string): Column<AdminGivingUnitFragment>[] {
  const { t, locale } = useI18n();
  return [
    {
      key: "name",
      header: t("admin.giving.reports.unit"),
      sort: (u) => u.name,
      cell: (u) => (
        <>
          <strong>{u.name}</strong>
          {/* Who gave, unless the unit is one person giving under their own name. */}
          {u.donors.some((d) => d.name !== u.name) && (
            <span className="muted"> · {u.donors.map((d) => d.name).join(", ")}</span>
          )}
        </>
      ),
    },
    {
      key: "first",
      header: t("admin.giving.reports.firstGift"),
      sort: (u) => u.firstGiftDate,
      cell: (u) => formatCalendarDate(u.firstGiftDate, locale),
    },
    {
      key: "last",
      header: t("admin.giving.reports.lastGift"),
      sort: (u) => u.lastGiftDate,
      cell: (u) => formatCalendarDate(u.lastGiftDate, locale),
    },
    { key: "gifts", header: t("admin.giving.reports.gifts"), sort: (u) => u.gifts, cell: (u) => u.gifts },
    {
      key: "amount",
      header: t("admin.giving.reports.amount"),
      sort: (u) => u.amountCents,
      cell: (u) => <span className="money">{formatCents(u.amountCents, currency, locale)}</span>,
    },
  ];
}

function FirstTime({ from, to, currency }: { from: string; to: string; currency: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const columns = useUnitColumns(currency);
  const { data, loading, error } = useAdminGivingFirstTime({ variables: { from, to }, skip: !from || !to });
  const problem = error ? handleError(error, i18n) : null;
  return (
    <section aria-labelledby="first-heading">
      <h2 id="first-heading">{t("admin.giving.reports.firstTime")}</h2>
      <p className="muted">{t("admin.giving.reports.firstTimeHint")}</p>
      {problem ? (
        <Alert kind="error">{givingFieldErrors(problem, i18n).to ?? problem.message}</Alert>
      ) : loading && !data ? (
        <p className="muted">{t("admin.giving.loading")}</p>
      ) : (
        <DataTable
          caption={t("admin.giving.reports.firstTime")}
          rows={data?.givingFirstTimeDonors ?? []}
          rowKey={(u) => u.key}
          rowLabel={(u) => u.name}
          columns={columns}
          initialSort={{ key: "first", direction: "descending" }}
          empty={<p>{t("admin.giving.reports.firstTimeEmpty")}</p>}
        />
      )}
    </section>
  );
}

const LOOK_BACK = [6, 12, 24];
const QUIET = [2, 3, 6];

function Lapsed({ currency }: { currency: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const columns = useUnitColumns(currency);
  const [months, setMonths] = useState(12);
  const [quietMonths, setQuietMonths] = useState(3);
  const { data, loading, error } = useAdminGivingLapsed({ variables: { months, quietMonths } });
  return (
    <section aria-labelledby="lapsed-heading">
      <h2 id="lapsed-heading">{t("admin.giving.reports.lapsed")}</h2>
      <div className="giving-period">
        <SelectField
          label={t("admin.giving.reports.lookBack")}
          value={String(months)}
          onChange={(e) => setMonths(Number(e.target.value))}
        >
          {LOOK_BACK.map((m) => (
            <option key={m} value={m}>
              {t("admin.giving.reports.months", { count: m })}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t("admin.giving.reports.quiet")}
          value={String(quietMonths)}
          onChange={(e) => setQuietMonths(Number(e.target.value))}
        >
          {QUIET.filter((q) => q < months).map((m) => (
            <option key={m} value={m}>
              {t("admin.giving.reports.months", { count: m })}
            </option>
          ))}
        </SelectField>
      </div>
      {error ? (
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      ) : loading && !data ? (
        <p className="muted">{t("admin.giving.loading")}</p>
      ) : (
        <DataTable
          caption={t("admin.giving.reports.lapsed")}
          rows={data?.givingLapsedDonors ?? []}
          rowKey={(u) => u.key}
          rowLabel={(u) => u.name}
          columns={columns}
          empty={<p>{t("admin.giving.reports.lapsedEmpty")}</p>}
        />
      )}
    </section>
  );
}
