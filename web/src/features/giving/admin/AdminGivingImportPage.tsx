import { useState, type ChangeEvent } from "react";
import { Link } from "react-router";
import {
  useAdminGivingAccess,
  useAdminGivingImport,
  useAdminGivingPreviewImport,
  type AdminGivingImportRowFragment,
  type AdminGivingPreviewImportMutation,
} from "./AdminGiving.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatCalendarDate } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { CheckboxField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { formatCents } from "@flock/shared/money";
import { NotFoundPage } from "../../errors/NotFoundPage.tsx";
import { downloadCsv, GivingNav } from "./GivingNav.tsx";
import { givingFieldErrors } from "./giving-errors.ts";

type Preview = AdminGivingPreviewImportMutation["previewGivingImport"];
type Row = AdminGivingImportRowFragment;

const TEMPLATE =
  "date,amount,fund,donor,method,cheque number,note\r\n" +
  "2026-01-04,50.00,General Fund,mark@example.org,cheque,1042,\r\n" +
  "2026-01-04,20,General Fund,anonymous,cash,,Plate\r\n";

/**
 * /admin/giving/import — gifts from another system's CSV export: the file is checked row by row first
 * (what would be recorded, and each refused row's problems, nothing written), then its accepted rows are
 * recorded all or none. Importing the same file again records nothing twice.
 */
export function AdminGivingImportPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("admin.giving.import.title"));
  const access = useAdminGivingAccess();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [onlyRefused, setOnlyRefused] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [check, checking] = useAdminGivingPreviewImport();
  const [record, recording] = useAdminGivingImport();
  if (access.loading || !access.data) return <Loading />;
  const { currency, view, manage } = access.data.givingAccess;
  if (!manage) return <NotFoundPage />;
  const money = (cents: number) => formatCents(cents, currency, locale);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setNotice(null);
    setPreview(null);
    if (!chosen) return setFile(null);
    const text = await chosen.text();
    if (text.length > GIVING_LIMITS.importCsvCharsMax) {
      setFile(null);
      setNotice({ kind: "error", text: t("admin.giving.import.tooLarge") });
      return;
    }
    setFile({ name: chosen.name, text });
    try {
      setPreview((await check({ variables: { csv: text } })).data!.previewGivingImport);
    } catch (caught) {
      const problem = handleError(caught, i18n);
      setNotice({ kind: "error", text: givingFieldErrors(problem, i18n).csv ?? problem.message });
    }
  }

  async function importRows() {
    if (!file || !preview) return;
    setNotice(null);
    try {
      const done = (await record({ variables: { csv: file.text, acceptedRows: preview.accepted } })).data!
        .importGivingCsv;
      setNotice({
        kind: "success",
        text: t("admin.giving.import.done", {
          count: done.created,
          amount: money(done.createdCents),
          already: done.alreadyImported,
          refused: done.refusedRows.length,
        }),
      });
      setPreview(null);
      setFile(null);
    } catch (caught) {
      const problem = handleError(caught, i18n);
      setNotice({
        kind: "error",
        text: problem.code === "CONFLICT" ? t("admin.giving.import.changed") : problem.message,
      });
    }
  }

  const rowError = (row: Row) =>
    row.errors
      .map((e) => {
        const key = `admin.giving.import.error.${e.code}`;
        return `${t(`admin.giving.import.column.${e.field}` as never)}: ${i18n.has(key) ? t(key) : e.message}`;
      })
      .join(" · ");
  const columns: Column<Row>[] = [
    { key: "line", header: t("admin.giving.import.line"), sort: (r) => r.line, cell: (r) => r.line },
    {
      key: "result",
      header: t("admin.giving.import.result"),
      sort: (r) => (r.accepted ? 1 : 0),
      cell: (r) =>
        r.accepted ? (
          <span className="badge badge--ok">{t("admin.giving.import.ok")}</span>
        ) : (
          <span className="import-row-error">
            <span className="badge badge--danger">{t("admin.giving.import.refused")}</span> {rowError(r)}
          </span>
        ),
    },
    {
      key: "date",
      header: t("admin.giving.import.column.date"),
      sort: (r) => r.date,
      // A date refused is shown as written (2026-13-01 is no day to format).
      cell: (r) => (r.errors.some((e) => e.field === "date") ? r.date : formatCalendarDate(r.date, locale)),
    },
    {
      key: "amount",
      header: t("admin.giving.import.column.amount"),
      sort: (r) => r.amountCents ?? -1,
      cell: (r) => (r.amountCents === null ? "" : <span className="money">{money(r.amountCents)}</span>),
    },
    { key: "fund", header: t("admin.giving.import.column.fund"), cell: (r) => r.fund?.name ?? "" },
    {
      key: "donor",
      header: t("admin.giving.import.column.donor"),
      cell: (r) => (r.anonymous ? t("admin.giving.gift.anonymous") : (r.donor?.name ?? "")),
    },
    {
      key: "method",
      header: t("admin.giving.import.column.method"),
      cell: (r) =>
        r.method
          ? r.chequeNumber
            ? t("admin.giving.gift.cheque", { number: r.chequeNumber })
            : t(`admin.giving.method.${r.method}`)
          : "",
    },
  ];
  const rows = preview ? (onlyRefused ? preview.rows.filter((r) => !r.accepted) : preview.rows) : [];
  const toRecord = preview ? preview.accepted - preview.alreadyImported : 0;
  return (
    <div className="admin-giving">
      <h1>{t("admin.giving.import.title")}</h1>
      <GivingNav view={view} manage={manage} />
      <p>{t("admin.giving.import.intro")}</p>
      <p className="muted">
        {t("admin.giving.import.format")}{" "}
        <button
          type="button"
          className="link-button"
          onClick={() => downloadCsv(TEMPLATE, "gifts-template.csv")}
        >
          {t("admin.giving.import.template")}
        </button>
      </p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <div className="field">
        <label htmlFor="giving-import-file">{t("admin.giving.import.file")}</label>
        <input
          id="giving-import-file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby="giving-import-file-hint"
          onChange={(e) => void choose(e)}
        />
        <p className="field__hint" id="giving-import-file-hint">
          {t("admin.giving.import.fileHint", { rows: GIVING_LIMITS.importRowsMax })}
        </p>
      </div>
      {checking.loading && <p className="muted">{t("admin.giving.import.checking")}</p>}
      {preview && file && (
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading">{t("admin.giving.import.preview", { file: file.name })}</h2>
          <p data-testid="import-summary">
            {t("admin.giving.import.summary", {
              accepted: preview.accepted,
              amount: money(preview.acceptedCents),
              refused: preview.refused,
              already: preview.alreadyImported,
            })}
          </p>
          <div className="actions">
            <button
              type="button"
              className="button"
              disabled={toRecord <= 0 || recording.loading}
              onClick={() => void importRows()}
            >
              {recording.loading
                ? t("admin.giving.import.recording")
                : t("admin.giving.import.record", { count: toRecord })}
            </button>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => (setPreview(null), setFile(null))}
            >
              {t("common.cancel")}
            </button>
          </div>
          {preview.refused > 0 && (
            <CheckboxField
              label={t("admin.giving.import.onlyRefused")}
              checked={onlyRefused}
              onChange={(e) => setOnlyRefused(e.target.checked)}
            />
          )}
          <DataTable
            caption={t("admin.giving.import.preview", { file: file.name })}
            rows={rows}
            rowKey={(r) => String(r.line)}
            rowLabel={(r) => String(r.line)}
            columns={columns}
            empty={<p>{t("admin.giving.import.empty")}</p>}
          />
        </section>
      )}
      <p>
        <Link to="/admin/giving">{t("admin.giving.import.back")}</Link>
      </p>
    </div>
  );
}
