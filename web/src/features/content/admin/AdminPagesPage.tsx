import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import {
  useAdminPagesPage,
  useNavigationOrderEditor,
  useReorderNavigation,
  type AdminPageRowFragment,
} from "./AdminPagesPage.generated.ts";
import type { PageStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { StatusBadge, usePermissions } from "./common.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { StatusFilter } from "./StatusFilter.tsx";
import "../../../styles/staff.css";
import { appendEdges } from "../../../lib/appendEdges.ts";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";

const STATUSES: PageStatus[] = ["DRAFT", "PUBLISHED"];

export function AdminPagesPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.content.pages.title"));
  const { format } = useChurchDateTime();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s.toLowerCase() === params.get("status")) ?? null;
  const { data, loading, error, fetchMore } = useAdminPagesPage({
    variables: { first: 50, status },
    fetchPolicy: "cache-and-network",
  });
  const pages = data?.pages.edges.map((e) => e.node) ?? [];
  type Row = (typeof pages)[number];
  const columns: Column<Row>[] = [
    {
      key: "title",
      header: t("admin.content.field.title"),
      sort: (page) => page.title,
      cell: (page) => (
        <>
          <Link to={`/admin/pages/${page.id}`} className="content-table__title">
            {page.title}
          </Link>
          <span className="block muted small">{page.path}</span>
        </>
      ),
    },
    {
      key: "status",
      header: t("admin.content.column.status"),
      sort: (page) => page.status,
      cell: (page) => <StatusBadge status={page.status} />,
    },
    {
      key: "nav",
      header: t("admin.content.pages.inNav"),
      sort: (page) => (page.showInNav ? 0 : 1),
      cell: (page) => (page.showInNav ? t("admin.content.yes") : t("admin.content.no")),
    },
    {
      key: "updated",
      header: t("admin.content.column.updated"),
      sort: (page) => page.updated,
      cell: (page) => <time dateTime={page.updated}>{format(page.updated)}</time>,
    },
  ];

  return (
    <div className="page">
      <div className="page-head">
        <h1>{t("admin.content.pages.title")}</h1>
        <Link to="/admin/pages/new" className="button">
          + {t("admin.content.pages.new")}
        </Link>
      </div>
      <StatusFilter
        label={t("admin.content.filterByStatus")}
        options={STATUSES}
        value={status}
        onChange={(next) => setParams(next ? { status: next.toLowerCase() } : {}, { replace: true })}
      />
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <DataTable
          caption={t("admin.content.pages.title")}
          rows={pages}
          rowKey={(page) => page.id}
          rowLabel={(page) => page.title}
          columns={columns}
          empty={<p>{status ? t("admin.content.pages.noMatch") : t("admin.content.pages.empty")}</p>}
        />
      )}
      {data?.pages.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.pages.pageInfo.endCursor },
              updateQuery: appendEdges("pages"),
            })
          }
        >
          {t("admin.content.showMore")}
        </button>
      )}
      <NavigationOrderEditor />
    </div>
  );
}

const byNavOrder = (a: AdminPageRowFragment, b: AdminPageRowFragment) =>
  a.navOrder - b.navOrder || a.title.localeCompare(b.title);

/**
 * The order of the site navigation: published pages with "show in navigation", moved with up/down
 * buttons (keyboard and screen-reader friendly, unlike drag and drop). Each move is saved at once.
 */
function NavigationOrderEditor() {
  const i18n = useI18n();
  const { t } = i18n;
  const { canPublish } = usePermissions();
  const { data, loading } = useNavigationOrderEditor({ fetchPolicy: "cache-and-network" });
  const [reorder] = useReorderNavigation();
  const [order, setOrder] = useState<AdminPageRowFragment[] | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [error, setError] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [focus, setFocus] = useState<string | null>(null);
  const fromServer = (data?.pages.edges.map((e) => e.node) ?? []).filter((p) => p.showInNav).sort(byNavOrder);
  const items = order ?? fromServer;

  useEffect(() => {
    // Keep the keyboard on the button that was pressed (or its twin when it vanished at an end).
    if (focus) buttons.current.get(focus)?.focus();
  }, [focus, items]);

  async function move(index: number, delta: -1 | 1) {
    const next = [...items];
    const [page] = next.splice(index, 1);
    if (!page) return;
    const target = index + delta;
    next.splice(target, 0, page);
    setOrder(next);
    setError(null);
    const direction = delta < 0 ? "up" : "down";
    const atEdge = target === 0 || target === next.length - 1;
    setFocus(`${page.id}:${atEdge ? (direction === "up" ? "down" : "up") : direction}`);
    try {
      await reorder({ variables: { pageIds: next.map((p) => p.id) } });
      setAnnouncement(
        t("admin.content.nav.moved", { title: page.title, position: target + 1, count: next.length }),
      );
    } catch (caught) {
      setError(handleError(caught, i18n).message);
      setOrder(null);
    }
  }

  return (
    <section className="card nav-order" aria-labelledby="nav-order-title">
      <h2 id="nav-order-title">{t("admin.content.nav.title")}</h2>
      <p className="muted">{t("admin.content.nav.intro")}</p>
      {error && <Alert kind="error">{error}</Alert>}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {loading && !data ? (
        <Loading />
      ) : items.length === 0 ? (
        <p className="muted">{t("admin.content.nav.empty")}</p>
      ) : (
        <ol className="nav-order__list">
          {items.map((page, index) => (
            <li key={page.id} className="nav-order__item">
              <span className="nav-order__position" aria-hidden="true">
                {index + 1}
              </span>
              <span className="nav-order__title">
                {page.title} <span className="muted small">{page.path}</span>
              </span>
              {canPublish && (
                <span className="nav-order__buttons">
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    ref={(el) =>
                      void (el
                        ? buttons.current.set(`${page.id}:up`, el)
                        : buttons.current.delete(`${page.id}:up`))
                    }
                    disabled={index === 0}
                    aria-label={t("admin.content.nav.moveUp", { title: page.title })}
                    onClick={() => void move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    ref={(el) =>
                      void (el
                        ? buttons.current.set(`${page.id}:down`, el)
                        : buttons.current.delete(`${page.id}:down`))
                    }
                    disabled={index === items.length - 1}
                    aria-label={t("admin.content.nav.moveDown", { title: page.title })}
                    onClick={() => void move(index, 1)}
                  >
                    ↓
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
