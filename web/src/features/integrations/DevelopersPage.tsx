import { useEffect, useState } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { RichText } from "../../components/RichText.tsx";

/**
 * /developers: the API guide (docs/API.md, rendered and sanitized by the gateway at
 * /developers/guide.html), with the schema and the endpoint at the top: what an integrator needs,
 * served by the church's own site.
 */
export function DevelopersPage() {
  const { t } = useI18n();
  usePageTitle(t("home.developers.title"));
  const [guide, setGuide] = useState<{ html: string } | "failed" | null>(null);
  useEffect(() => {
    let current = true;
    fetch("/developers/guide.html")
      .then((response) =>
        response.ok ? response.text() : Promise.reject(new Error(String(response.status))),
      )
      .then(
        (html) => current && setGuide({ html }),
        () => current && setGuide("failed"),
      );
    return () => {
      current = false;
    };
  }, []);
  return (
    <div className="container page">
      <h1>{t("home.developers.title")}</h1>
      <ul className="developers-facts">
        <li>
          {t("home.developers.endpoint")} <code>{`${window.location.origin}/graphql`}</code>
        </li>
        <li>
          <a href="/graphql/schema.graphql">{t("home.developers.schema")}</a>
        </li>
      </ul>
      {guide === null ? (
        <Loading />
      ) : guide === "failed" ? (
        <Alert kind="error">{t("home.developers.failed")}</Alert>
      ) : (
        <RichText html={guide.html} />
      )}
    </div>
  );
}
