import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useCreatePage } from "./AdminPageEditorPage.generated.ts";
import { useCreatePost } from "./AdminPostEditorPage.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";

/**
 * /admin/news/new and /admin/pages/new: create a draft at once, then edit it under its own address,
 * so autosave, the local copy and a reload all have an id from the first keystroke.
 */
export function CreateDraft({ kind }: { kind: "post" | "page" }) {
  const i18n = useI18n();
  const { t } = i18n;
  const navigate = useNavigate();
  const [createPost] = useCreatePost();
  const [createPage] = useCreatePage();
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef(-1);

  useEffect(() => {
    if (started.current === attempt) return; // once per attempt (StrictMode runs effects twice)
    started.current = attempt;
    const base = kind === "post" ? "/admin/news" : "/admin/pages";
    const create =
      kind === "post"
        ? createPost({ variables: { input: { title: t("admin.content.post.untitled") } } }).then((r) => r.data?.createPost.id)
        : createPage({ variables: { input: { title: t("admin.content.page.untitled") } } }).then((r) => r.data?.createPage.id);
    create
      .then((id) => {
        if (id) void navigate(`${base}/${id}`, { replace: true, state: { fresh: true } });
      })
      .catch((caught: unknown) => setError(handleError(caught, i18n).message));
  }, [attempt, kind, createPost, createPage, navigate, t, i18n]);

  if (!error) return <Loading />;
  return (
    <div className="page">
      <Alert kind="error">{error}</Alert>
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            setError(null);
            setAttempt((a) => a + 1);
          }}
        >
          {t("admin.content.tryAgain")}
        </button>
        <Link to={kind === "post" ? "/admin/news" : "/admin/pages"}>{kind === "post" ? t("admin.content.post.back") : t("admin.content.page.back")}</Link>
      </div>
    </div>
  );
}
