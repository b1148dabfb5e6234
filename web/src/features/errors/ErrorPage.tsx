import { Component, type ErrorInfo, type ReactNode } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";

/**
 * Shown when a page crashes while rendering. It stands alone (no app shell queries), so it works
 * even when the gateway cannot be reached.
 */
export function ErrorPage() {
  const { t } = useI18n();
  return (
    <div className="container narrow page" role="alert">
      <h1>{t("errorPage.title")}</h1>
      <p>{t("errorPage.body")}</p>
      <p className="actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t("errorPage.retry")}
        </button>
        <a href="/" className="button button--ghost">
          {t("notFound.home")}
        </a>
      </p>
    </div>
  );
}

/** Catches render errors below it; `resetKey` (the path) clears the error when the user navigates. */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { failedAt: string | null | undefined }
> {
  override state: { failedAt: string | null | undefined } = { failedAt: null };

  static getDerivedStateFromError() {
    return { failedAt: undefined };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error("Render error", error, info.componentStack);
    this.setState({ failedAt: this.props.resetKey });
  }

  override componentDidUpdate() {
    if (
      this.state.failedAt !== null &&
      this.state.failedAt !== undefined &&
      this.state.failedAt !== this.props.resetKey
    ) {
      this.setState({ failedAt: null });
    }
  }

  override render() {
    return this.state.failedAt === null ? this.props.children : <ErrorPage />;
  }
}
