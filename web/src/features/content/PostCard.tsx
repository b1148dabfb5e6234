import { Link } from "react-router";
import type { PostCardFragment } from "./news.generated.ts";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatDate } from "../../i18n/format.ts";

/** A news post in a list: cover, title (the link), date, summary. */
export function PostCard({ post, headingLevel = 2 }: { post: PostCardFragment; headingLevel?: 2 | 3 }) {
  const { t, locale } = useI18n();
  const { data } = useAppShell();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="post-card">
      {post.cover && (
        <img
          className="post-card__image"
          src={post.cover.imageUrl}
          alt={post.cover.alt}
          width={400}
          height={300}
          loading="lazy"
          decoding="async"
        />
      )}
      <div className="post-card__body">
        <Heading className="post-card__title">
          <Link to={post.path}>{post.title}</Link>
        </Heading>
        <p className="post-card__meta muted small">
          {post.publishedAt && (
            <time dateTime={post.publishedAt}>
              {formatDate(post.publishedAt, locale, data?.settings.timezone ?? "UTC")}
            </time>
          )}
          {post.pinned && <span className="badge badge--ok">{t("news.pinned")}</span>}
          {post.audience === "MEMBERS" && <span className="badge badge--warn">{t("news.membersOnly")}</span>}
        </p>
        {post.summary && <p>{post.summary}</p>}
      </div>
    </article>
  );
}
