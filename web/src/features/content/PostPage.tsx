import { Link, useParams } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
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
  // Read again on each visit: a reader who has just signed in may now see a post the cache holds as missing.
  const { data, loading, error } = usePostPage({ variables: { slug }, fetchPolicy: "cache-and-network" });
  const post = data?.post;
  usePageTitle(post?.title ?? null);
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  // A signed-out reader cannot tell a members-only post from a post that does not exist (neither
  // its title nor its existence is revealed; the server answers 404 either way): both invite them
  // to sign in and come back here.
  if (!post) return shell && !shell.viewer ? <MembersInvitation path={`/news/${slug}`} /> : <NotFoundPage />;
  return (
    <article className="container article page">
      <p className="small">
        <Link to="/news">← {t("news.title")}</Link>
      </p>
      <h1>{post.title}</h1>
      <p className="muted">
        {post.publishedAt && (
          <time dateTime={post.publishedAt}>
            {formatDate(post.publishedAt, locale, shell?.settings.timezone ?? "UTC")}
          </time>
        )}
        {post.authorName && <> · {post.authorName}</>}
        {post.audience === "MEMBERS" && <span className="badge badge--warn">{t("news.membersOnly")}</span>}
        {post.status !== "PUBLISHED" && (
          <span className="badge badge--danger">{t(`news.status.${post.status}`)}</span>
        )}
      </p>
      {post.cover && (
        <figure className="article__cover">
          {/* The article is at most 46rem wide: a phone takes the 800-pixel rendition, not the 1600
              (the cover is the post page's largest paint). */}
          <img
            src={post.cover.imageUrl}
            srcSet={`${post.cover.mediumUrl} 800w, ${post.cover.imageUrl} 1600w`}
            sizes="(min-width: 48.5rem) 46rem, calc(100vw - 2.5rem)"
            alt={post.cover.alt}
            width={post.cover.width ?? undefined}
            height={post.cover.height ?? undefined}
            fetchPriority="high"
          />
          {post.cover.caption && <figcaption>{post.cover.caption}</figcaption>}
        </figure>
      )}
      <RichText html={post.html} />
    </article>
  );
}

function MembersInvitation({ path }: { path: string }) {
  const { t } = useI18n();
  usePageTitle(t("news.invite.title"));
  return (
    <div className="container narrow page">
      <h1>{t("news.invite.title")}</h1>
      <p>{t("news.invite.body")}</p>
      <p className="actions">
        <Link to={`/login?next=${encodeURIComponent(path)}`} className="button">
          {t("news.invite.signIn")}
        </Link>
        <Link to="/news" className="button button--ghost">
          {t("news.invite.allNews")}
        </Link>
      </p>
    </div>
  );
}
