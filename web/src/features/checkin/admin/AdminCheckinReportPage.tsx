import { useState } from "react";
import { Link } from "react-router";
import { useAdminCheckinReport, type AdminCheckinReportQuery } from "./AdminCheckin.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { dateTimeFormat, formatWhen } from "../../../i18n/format.ts";
import { Alert } from "../../../components/Alert.tsx";
import { TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { localInput } from "../../../lib/zoned.ts";
import { useChurchZone } from "../zone.ts";
import "../../../styles/staff.css";
import "./admin-checkin.css";

type Report = AdminCheckinReportQuery["checkinReport"];
type SessionRow = Report["sessions"][number];
type FirstTimer = Report["firstTimers"][number];

/** A church-local day (YYYY-MM-DD), `daysAgo` days before today. */
const dayIn = (zone: string, daysAgo: number) =>
  localInput(new Date(Date.now() - daysAgo * 86_400_000).toISOString(), zone).slice(0, 10);

/**
 * /admin/checkin/reports: how many children came, per session and room, week by week, and who came for
 * the first time (for follow-up), over the days chosen (the last 8 weeks to start); the headcounts as CSV.
 */
export function AdminCheckinReportPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const zone = useChurchZone();
  usePageTitle(t("admin.checkin.report.title"));
  const [range, setRange] = useState(() => ({ from: dayIn(zone, 55), to: dayIn(zone, 0) }));
  const { data, previousData, loading, error } = useAdminCheckinReport({
    variables: range,
    skip: !range.from || !range.to,
    fetchPolicy: "cache-and-network",
  });
  const report = (data ?? previousData)?.checkinReport;
  const weekday = dateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const weekLabel = (weekOf: string) => weekday.format(new Date(`${weekOf}T12:00:00Z`));
  const most = Math.max(1, ...(report?.weeks ?? []).map((w) => w.children));

  const sessionColumns: Column<SessionRow>[] = [
    {
      key: "when",
      header: t("admin.checkin.report.when"),
      sort: (row) => row.session.startsAt,
      cell: (row) => formatWhen(row.session.startsAt, locale, { date: "medium", timeZone: zone }),
    },
    {
      key: "session",
      header: t("admin.checkin.report.session"),
      sort: (row) => row.session.name,
      cell: (row) => row.session.name,
    },
    {
      key: "rooms",
      header: t("admin.checkin.report.rooms"),
      cell: (row) => row.rooms.map((r) => `${r.room.name} ${r.children}`).join(" · "),
    },
    {
      key: "children",
      header: t("admin.checkin.report.children"),
      sort: (row) => row.children,
      cell: (row) => row.children,
    },
    {
      key: "first",
      header: t("admin.checkin.report.firstTime"),
      sort: (row) => row.firstTime,
      cell: (row) => row.firstTime,
    },
  ];
  const firstColumns: Column<FirstTimer>[] = [
    {
      key: "name",
      header: t("admin.checkin.report.child"),
      sort: (row) => row.name,
      cell: (row) => row.name,
    },
    {
      key: "household",
      header: t("admin.checkin.report.household"),
      sort: (row) => row.householdName,
      cell: (row) => row.householdName,
    },
    {
      key: "when",
      header: t("admin.checkin.report.when"),
      sort: (row) => row.checkedInAt,
      cell: (row) =>
        `${formatWhen(row.checkedInAt, locale, { date: "medium", timeZone: zone })} · ${row.sessionName}`,
    },
    {
      key: "room",
      header: t("admin.checkin.report.room"),
      sort: (row) => row.roomName,
      cell: (row) => row.roomName,
    },
  ];

  function downloadCsv() {
    if (!report) return;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([report.csv], { type: "text/csv;charset=utf-8" }));
    link.download = `check-in-${report.from}-${report.to}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  return (
    <div className="page">
      <div className="page-head">
        <h1>{t("admin.checkin.report.title")}</h1>
        <div className="actions">
          <Link to="/admin/checkin" className="button button--ghost">
            {t("admin.checkin.report.back")}
          </Link>
          <button type="button" className="button" disabled={!report} onClick={downloadCsv}>
            {t("admin.checkin.report.csv")}
          </button>
        </div>
      </div>
      <form className="form__row checkin-report__range" onSubmit={(e) => e.preventDefault()}>
        <TextField
          label={t("admin.checkin.report.from")}
          type="date"
          value={range.from}
          max={range.to}
          onChange={(e) => setRange({ ...range, from: e.target.value })}
        />
        <TextField
          label={t("admin.checkin.report.to")}
          type="date"
          value={range.to}
          min={range.from}
          onChange={(e) => setRange({ ...range, to: e.target.value })}
        />
      </form>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {!report ? (
        loading && <Loading />
      ) : (
        <>
          <dl className="checkin-report__totals" aria-busy={loading}>
            <div>
              <dt>{t("admin.checkin.report.children")}</dt>
              <dd>{report.children}</dd>
            </div>
            <div>
              <dt>{t("admin.checkin.report.firstTime")}</dt>
              <dd>{report.firstTime}</dd>
            </div>
            <div>
              <dt>{t("admin.checkin.report.sessions")}</dt>
              <dd>{report.sessions.length}</dd>
            </div>
          </dl>
          <h2 id="trend-heading">{t("admin.checkin.report.trend")}</h2>
          {report.weeks.length === 0 ? (
            <p className="empty-state">{t("admin.checkin.report.empty")}</p>
          ) : (
            <table className="checkin-report__trend" aria-labelledby="trend-heading">
              <thead>
                <tr>
                  <th scope="col">{t("admin.checkin.report.week")}</th>
                  <th scope="col">{t("admin.checkin.report.children")}</th>
                  <th scope="col">{t("admin.checkin.report.firstTime")}</th>
                </tr>
              </thead>
              <tbody>
                {report.weeks.map((week) => (
                  <tr key={week.weekOf}>
                    <th scope="row">{weekLabel(week.weekOf)}</th>
                    <td>
                      <div className="checkin-report__cell">
                        <span className="checkin-report__track">
                          <span
                            className="checkin-report__bar"
                            style={{ inlineSize: `${(week.children / most) * 100}%` }}
                          />
                        </span>
                        <span>{week.children}</span>
                      </div>
                    </td>
                    <td>{week.firstTime}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>{t("admin.checkin.report.perSession")}</h2>
          <DataTable
            caption={t("admin.checkin.report.perSession")}
            rows={report.sessions}
            rowKey={(row) => row.session.id}
            rowLabel={(row) => row.session.name}
            columns={sessionColumns}
            initialSort={{ key: "when", direction: "descending" }}
            empty={<p>{t("admin.checkin.report.empty")}</p>}
          />
          <h2>{t("admin.checkin.report.firstTimers")}</h2>
          <p className="muted">{t("admin.checkin.report.firstTimersHint")}</p>
          <DataTable
            caption={t("admin.checkin.report.firstTimers")}
            rows={report.firstTimers}
            rowKey={(row) => `${row.name}-${row.checkedInAt}`}
            rowLabel={(row) => row.name}
            columns={firstColumns}
            initialSort={{ key: "when", direction: "descending" }}
            empty={<p>{t("admin.checkin.report.noFirstTimers")}</p>}
          />
        </>
      )}
    </div>
  );
}
