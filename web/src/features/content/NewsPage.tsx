import { useNewsPage } from "./news.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { PostCard } from "./PostCard.tsx";
import { appendEdges } from "../../lib/appendEdges.ts";

export function NewsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("news.title"));
  const { data, loading, error, fetchMore } = useNewsPage();
  const posts = data?.posts.edges.map((e) => e.node) ?? [];
  return (
    <div className="container page">
      <h1>{t("news.title")}</h1>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : posts.length === 0 ? (
        <p className="empty">{t("news.empty")}</p>
      ) : (
        <div className="post-list">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </div>
      )}
      {data?.posts.pageInfo.hasNextPage && (
        <p>
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
            {t("news.older")}
          </button>
        </p>
      )}
    </div>
  );
}
