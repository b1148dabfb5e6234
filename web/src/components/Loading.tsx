import { useI18n } from "../i18n/I18nProvider.tsx";

export function Loading() {
  const { t } = useI18n();
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="loading__spinner" aria-hidden="true" />
      {t("app.loading")}
    </div>
  );
}
