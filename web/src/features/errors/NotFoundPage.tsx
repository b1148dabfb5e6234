import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { usePageTitle } from "../../lib/usePageTitle.ts";

export function NotFoundPage() {
  const { t } = useI18n();
  usePageTitle(t("notFound.title"));
  return (
    <div className="container narrow page">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.body")}</p>
      <p>
        <Link to="/" className="button">
          {t("notFound.home")}
        </Link>
      </p>
    </div>
  );
}
