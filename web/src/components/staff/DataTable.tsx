import { useMemo, useState, type ReactNode } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { sortRows, type SortValue } from "./sortRows.ts";

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Sortable by this value (the header becomes a button); absent: not sortable. */
  sort?: (row: T) => SortValue;
}

export interface BulkAction<T> {
  label: string;
  run: (rows: T[]) => Promise<void> | void;
}

/**
 * The staff lists' table (events, groups …), one look everywhere: sortable columns (aria-sort), each
 * cell labelled for the phone layout (global.css .table), an empty state that says what to do, and —
 * when given bulk actions — a checkbox per row and a bar acting on the chosen ones.
 */
export function DataTable<T>({
  caption,
  rows,
  rowKey,
  rowLabel,
  columns,
  empty,
  initialSort,
  bulkActions = [],
}: {
  /** What the table lists (read by screen readers). */
  caption: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** A row's name, for its checkbox's label. */
  rowLabel: (row: T) => string;
  columns: Column<T>[];
  empty: ReactNode;
  initialSort?: { key: string; direction: "ascending" | "descending" };
  bulkActions?: BulkAction<T>[];
}) {
  const { t, locale } = useI18n();
  const [sort, setSort] = useState(initialSort ?? null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    return column?.sort ? sortRows(rows, column.sort, sort!.direction, locale) : [...rows];
  }, [rows, columns, sort, locale]);
  if (!rows.length) return <div className="empty">{empty}</div>;
  const selectable = bulkActions.length > 0;
  const picked = sorted.filter((row) => chosen.has(rowKey(row)));
  const toggle = (key: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const act = async (action: BulkAction<T>) => {
    setBusy(true);
    try {
      await action.run(picked);
      setChosen(new Set());
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {selectable && picked.length > 0 && (
        <div className="bulk-bar" role="region" aria-label={t("admin.table.bulk")}>
          <span>{t("admin.table.chosen", { count: picked.length })}</span>
          {bulkActions.map((action) => (
            <button
              key={action.label}
              type="button"
              className="button button--small button--ghost"
              disabled={busy}
              onClick={() => void act(action)}
            >
              {action.label}
            </button>
          ))}
          <button type="button" className="link-button" onClick={() => setChosen(new Set())}>
            {t("admin.table.clear")}
          </button>
        </div>
      )}
      <div className="staff-table-scroll">
        <table className="table data-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {selectable && (
                <th scope="col" className="data-table__select">
                  <input
                    type="checkbox"
                    aria-label={t("admin.table.chooseAll")}
                    checked={picked.length === sorted.length}
                    onChange={(e) => setChosen(e.target.checked ? new Set(sorted.map(rowKey)) : new Set())}
                  />
                </th>
              )}
              {columns.map((column) => {
                const direction = sort?.key === column.key ? sort.direction : undefined;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={direction ?? (column.sort ? "none" : undefined)}
                  >
                    {column.sort ? (
                      <button
                        type="button"
                        className="data-table__sort"
                        onClick={() =>
                          setSort({
                            key: column.key,
                            direction: direction === "ascending" ? "descending" : "ascending",
                          })
                        }
                      >
                        {column.header}
                        <span aria-hidden="true">
                          {direction === "ascending" ? " ▲" : direction === "descending" ? " ▼" : " ↕"}
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => {
              const key = rowKey(row);
              return (
                <tr key={key} className={chosen.has(key) ? "is-chosen" : undefined}>
                  {selectable && (
                    <td className="data-table__select">
                      <input
                        type="checkbox"
                        aria-label={t("admin.table.choose", { name: rowLabel(row) })}
                        checked={chosen.has(key)}
                        onChange={(e) => toggle(key, e.target.checked)}
                      />
                    </td>
                  )}
                  {columns.map((column) => (
                    <td key={column.key} data-label={column.header}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
