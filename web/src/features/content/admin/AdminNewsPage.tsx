import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useAdminNewsPage, useArchivePosts } from "./AdminNewsPage.generated.ts";
import type { PostStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { StatusBadge, usePermissions } from "./common.tsx";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { StatusFilter } from "./StatusFilter.tsx";
import "../../../styles/staff.css";
import { appendEdges } from "../../../lib/appendEdges.ts";

const PAGE_SIZE = 20;
const STATUSES: PostStatus[] = ["DRAFT", "SCHEDULED", "PUBLISHED", "ARCHIVED"];

export function AdminNewsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.content.news.title"));
  const { canPublish } = usePermissions();
  const { format } = useChurchDateTime();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s.toLowerCase() === params.get("status")) ?? null;
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 300);
  const { data, loading, error, fetchMore, refetch } = useAdminNewsPage({
    variables: { first: PAGE_SIZE, search: query || null, status },
    fetchPolicy: "cache-and-network",
  });
  const [archivePosts, { loading: archiving }] = useArchivePosts();
  const [selected, setSelected] = useState<string[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const posts = data?.posts.edges.map((e) => e.node) ?? [];
  const visibleSelected = selected.filter((id) => posts.some((p) => p.id === id));
  const allSelected = posts.length > 0 && visibleSelected.length === posts.length;

  async function archiveSelected() {
    if (!window.confirm(t("admin.content.news.confirmArchive", { count: visibleSelected.length }))) return;
    setNotice(null);
    try {
      await archivePosts({ variables: { ids: visibleSelected } });
      setNotice({
        kind: "success",
        text: t("admin.content.news.archived", { count: visibleSelected.length }),
      });
      setSelected([]);
      await refetch();
    } catch (caught) {
      setNotice({ kind: "error", text: handleError(caught, i18n).message });
    }
  }

  return (
    <div className="page">
      <div className="page-head">
        <h1>{t("admin.content.news.title")}</h1>
        <Link to="/admin/news/new" className="button">
          + {t("admin.content.news.new")}
        </Link>
      </div>
      <StatusFilter
        label={t("admin.content.filterByStatus")}
        options={STATUSES}
        value={status}
        onChange={(next) => {
          setSelected([]);
          setParams(next ? { status: next.toLowerCase() } : {}, { replace: true });
        }}
      />
      <div className="toolbar">
        <label className="search">
          <span className="visually-hidden">{t("admin.content.news.search")}</span>
          <input
            type="search"
            placeholder={t("admin.content.news.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        {data && (
          <span className="muted">{t("admin.content.news.count", { count: data.posts.totalCount })}</span>
        )}
        {canPublish && (
          <button
            type="button"
            className="button button--ghost"
            disabled={!visibleSelected.length || archiving}
            onClick={() => void archiveSelected()}
          >
            {t("admin.content.news.archiveSelected", { count: visibleSelected.length })}
          </button>
        )}
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : posts.length === 0 ? (
        <div className="empty">
          <p>{query || status ? t("admin.content.news.noMatch") : t("admin.content.news.empty")}</p>
          {!query && !status && (
            <Link to="/admin/news/new" className="button">
              {t("admin.content.news.writeFirst")}
            </Link>
          )}
        </div>
      ) : (
        <table className="table content-table">
          <caption className="visually-hidden">{t("admin.content.news.title")}</caption>
          <thead>
            <tr>
              {canPublish && (
                <th scope="col" className="content-table__select">
                  <input
                    type="checkbox"
                    aria-label={t("admin.content.news.selectAll")}
                    checked={allSelected}
                    onChange={(e) => setSelected(e.target.checked ? posts.map((p) => p.id) : [])}
                  />
                </th>
              )}
              <th scope="col">{t("admin.content.field.title")}</th>
              <th scope="col">{t("admin.content.column.status")}</th>
              <th scope="col">{t("admin.content.field.audience")}</th>
              <th scope="col">{t("admin.content.column.updated")}</th>
            </tr>
          </thead>
          <tbody>
            {posts.map((post) => (
              <tr key={post.id}>
                {canPublish && (
                  <td className="content-table__select">
                    <input
                      type="checkbox"
                      aria-label={t("admin.content.news.select", { title: post.title })}
                      checked={selected.includes(post.id)}
                      onChange={(e) =>
                        setSelected((s) =>
                          e.target.checked ? [...s, post.id] : s.filter((id) => id !== post.id),
                        )
                      }
                    />
                  </td>
                )}
                <td data-label={t("admin.content.field.title")}>
                  <Link to={`/admin/news/${post.id}`} className="content-table__title">
                    {post.title}
                  </Link>
                  {post.pinned && <span className="badge badge--info">{t("admin.content.news.pinned")}</span>}
                  {post.byApiToken && (
                    <span className="badge">
                      {t("admin.content.news.byApiToken", { name: post.authorName })}
                    </span>
                  )}
                  <span className="block muted small">{post.path}</span>
                </td>
                <td data-label={t("admin.content.column.status")}>
                  <StatusBadge status={post.status} />
                  {post.status === "SCHEDULED" && post.publishAt && (
                    <span className="block small">{format(post.publishAt)}</span>
                  )}
                </td>
                <td data-label={t("admin.content.field.audience")}>
                  {t(`admin.content.audience.${post.audience}`)}
                </td>
                <td data-label={t("admin.content.column.updated")}>
                  <time dateTime={post.updated}>{format(post.updated)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data?.posts.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.posts.pageInfo.endCursor },
              updateQuery: appendEdges("posts"),
            })
          }
        >
          {t("admin.content.showMore")}
        </button>
      )}
    </div>
  );
}
