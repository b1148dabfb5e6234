import { Link, useParams } from "react-router";
import { useAppShell } from "../../app/AppShell.generated.ts";
import { usePostPage } from "./news.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatDate } from "../../i18n/format.ts";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { RichText } from "../../components/RichText.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";

export function PostPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { slug = "" } = useParams();
  const { data: shell } = useAppShell();
  const { data, loading, error } = usePostPage({ variables: { slug } });
  const post = data?.post;
  usePageTitle(post?.title ?? null);
  if (loading && !data) return <Loading />;
  if (error) return <div className="container page"><Alert kind="error">{handleError(error, i18n).message}</Alert></div>;
  if (!post) return <NotFoundPage />;
  return (
    <article className="container article page">
      <p className="small">
        <Link to="/news">← {t("news.title")}</Link>
      </p>
      <h1>{post.title}</h1>
      <p className="muted">
        {post.publishedAt && <time dateTime={post.publishedAt}>{formatDate(post.publishedAt, locale, shell?.settings.timezone ?? "UTC")}</time>}
        {post.authorName && <> · {post.authorName}</>}
        {post.audience === "MEMBERS" && <span className="badge badge--warn">{t("news.membersOnly")}</span>}
        {post.status !== "PUBLISHED" && <span className="badge badge--danger">{t(`news.status.${post.status}`)}</span>}
      </p>
      {post.cover && (
        <figure className="article__cover">
          <img src={post.cover.imageUrl} alt={post.cover.alt} width={post.cover.width ?? undefined} height={post.cover.height ?? undefined} fetchPriority="high" />
          {post.cover.caption && <figcaption>{post.cover.caption}</figcaption>}
        </figure>
      )}
      <RichText html={post.html} />
    </article>
  );
}
