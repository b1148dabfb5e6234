import { useParams } from "react-router";
import { useContentPage } from "./pages.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { RichText } from "../../components/RichText.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";

/** A page editors wrote (About, Beliefs, Staff, Contact…). */
export function ContentPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { slug = "" } = useParams();
  const { data, loading, error } = useContentPage({ variables: { slug } });
  const page = data?.page;
  usePageTitle(page?.title ?? null);
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!page) return <NotFoundPage />;
  return (
    <article className="container article page">
      <h1>{page.title}</h1>
      {page.status !== "PUBLISHED" && <Alert kind="warning">{t("content.draftNotice")}</Alert>}
      <RichText html={page.html} />
    </article>
  );
}
