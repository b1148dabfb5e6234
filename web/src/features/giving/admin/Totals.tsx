import { useState } from "react";
import { useAdminGivingFunds, useAdminGivingSummary } from "./AdminGiving.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { dateTimeFormat } from "../../../i18n/format.ts";
import { SelectField } from "../../../components/Field.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { formatCents, sumCents } from "@flock/shared/money";

type MonthRow = { month: string; byFund: Map<string, number>; total: number };

/**
 * /admin/giving's totals: each fund per month of a year, and the year's total — no donor anywhere (what
 * giving.view_summary may see).
 */
export function TotalsSection({ currency, thisYear }: { currency: string; thisYear: number }) {
  const { t, locale } = useI18n();
  const [year, setYear] = useState(thisYear);
  const { data, loading } = useAdminGivingSummary({
    variables: { from: `${year}-01-01`, to: `${year}-12-31` },
    fetchPolicy: "cache-and-network",
  });
  const rows = data?.givingSummary ?? [];
  // The funds with gifts that year, in the funds' own order (as the list below shows them).
  const order = (useAdminGivingFunds().data?.funds ?? []).map((f) => f.id);
  const funds = [...new Map(rows.map((r) => [r.fund.id, r.fund])).values()].sort(
    (a, b) => (order.indexOf(a.id) >>> 0) - (order.indexOf(b.id) >>> 0),
  );
  const months = new Map<string, MonthRow>();
  for (const row of rows) {
    const month = months.get(row.month) ?? { month: row.month, byFund: new Map(), total: 0 };
    month.byFund.set(row.fund.id, (month.byFund.get(row.fund.id) ?? 0) + row.amountCents);
    month.total += row.amountCents;
    months.set(row.month, month);
  }
  const money = (cents: number) => formatCents(cents, currency, locale);
  const monthName = dateTimeFormat(locale, { month: "long", timeZone: "UTC" });
  const columns: Column<MonthRow>[] = [
    {
      key: "month",
      header: t("admin.giving.totals.month"),
      sort: (m) => m.month,
      cell: (m) => monthName.format(new Date(`${m.month}-01T00:00:00Z`)),
    },
    ...funds.map((fund) => ({
      key: fund.id,
      header: fund.name,
      sort: (m: MonthRow) => m.byFund.get(fund.id) ?? 0,
      cell: (m: MonthRow) => <span className="money">{money(m.byFund.get(fund.id) ?? 0)}</span>,
    })),
    {
      key: "total",
      header: t("admin.giving.totals.total"),
      sort: (m) => m.total,
      cell: (m) => <strong className="money">{money(m.total)}</strong>,
    },
  ];
  const yearTotal = sumCents(rows.map((r) => r.amountCents));
  const deductible = sumCents(rows.filter((r) => r.fund.deductible).map((r) => r.amountCents));
  return (
    <section aria-labelledby="totals-heading">
      <div className="page-head">
        <h2 id="totals-heading">{t("admin.giving.totals")}</h2>
        <SelectField
          label={t("admin.giving.totals.year")}
          value={String(year)}
          onChange={(e) => setYear(Number(e.target.value))}
        >
          {[0, 1, 2, 3, 4].map((back) => (
            <option key={back} value={thisYear - back}>
              {thisYear - back}
            </option>
          ))}
        </SelectField>
      </div>
      {loading && !data ? (
        <p className="muted">{t("admin.giving.loading")}</p>
      ) : (
        <>
          <p data-testid="year-total">
            {t("admin.giving.totals.year.summary", {
              total: money(yearTotal),
              deductible: money(deductible),
            })}
          </p>
          <DataTable
            caption={t("admin.giving.totals.caption", { year })}
            rows={[...months.values()]}
            rowKey={(m) => m.month}
            rowLabel={(m) => m.month}
            columns={columns}
            initialSort={{ key: "month", direction: "ascending" }}
            empty={<p>{t("admin.giving.totals.empty", { year })}</p>}
          />
        </>
      )}
    </section>
  );
}
