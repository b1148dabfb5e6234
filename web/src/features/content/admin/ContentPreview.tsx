import { useRef, useState } from "react";
import { useApolloClient } from "@apollo/client/react";
import { ContentPreviewDocument } from "./ContentPreview.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { RichText } from "../../../components/RichText.tsx";
import { handleError } from "../../../lib/handleError.ts";

/** "Preview": the body rendered by the gateway exactly as the public page shows it (.prose). */
export function ContentPreview({
  title,
  markdown,
  summary,
  cover,
}: {
  title: string;
  markdown: string;
  summary?: string;
  cover?: { url: string; alt: string } | null;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const client = useApolloClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<{ html?: string; error?: string; loading: boolean }>({ loading: false });

  function open() {
    setState({ loading: true });
    dialog.current?.showModal();
    client
      .query({ query: ContentPreviewDocument, variables: { markdown }, fetchPolicy: "network-only" })
      .then(({ data }) => setState({ loading: false, html: data?.previewMarkdown ?? "" }))
      .catch((error: unknown) => setState({ loading: false, error: handleError(error, i18n).message }));
  }

  return (
    <>
      <button type="button" className="button button--ghost" onClick={open}>
        {t("admin.content.preview.open")}
      </button>
      <dialog ref={dialog} className="dialog preview-dialog" aria-labelledby="preview-title">
        <div className="preview-dialog__bar">
          <h2 id="preview-title">{t("admin.content.preview.title")}</h2>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => dialog.current?.close()}
          >
            {t("common.close")}
          </button>
        </div>
        <div className="preview-dialog__page">
          <article className="article">
            <h1>{title}</h1>
            {summary && <p className="lead">{summary}</p>}
            {cover && (
              <figure className="article__cover">
                <img src={cover.url} alt={cover.alt} />
              </figure>
            )}
            {state.loading && <Loading />}
            {state.error && <Alert kind="error">{state.error}</Alert>}
            {state.html !== undefined &&
              (state.html.trim() ? (
                <RichText html={state.html} />
              ) : (
                <p className="muted">{t("admin.content.preview.empty")}</p>
              ))}
          </article>
        </div>
      </dialog>
    </>
  );
}
