import { Fragment, useState } from "react";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminIntegrationsPageDocument,
  useAdminIntegrationsPage,
  useCreateApiToken,
  useRevokeApiToken,
  type AdminApiTokenFieldsFragment,
  type AdminIntegrationsPageQuery,
} from "./integrations.generated.ts";
import type { ApiScope } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { useForm } from "../../../lib/useForm.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { LIMITS } from "@flock/shared/limits";
import "../../../styles/staff.css";
import { NewSecret } from "./NewSecret.tsx";
import { WebhooksSection } from "./Webhooks.tsx";

const SCOPES: ApiScope[] = [
  "CONTENT_MEMBERS",
  "PRAYER_MEMBERS",
  "PEOPLE_DIRECTORY",
  "SERVING_READ",
  "CHECKIN_COUNTS",
  "GIVING_SUMMARY",
  "CONTENT_WRITE",
];
/** Scopes that need a word more than their label (what they may and may not do). */
const SCOPE_HINTS: Partial<Record<ApiScope, "admin.integrations.scopeHint.CONTENT_WRITE">> = {
  CONTENT_WRITE: "admin.integrations.scopeHint.CONTENT_WRITE",
};
const STATUS_BADGE = { ACTIVE: "badge--ok", EXPIRED: "badge--muted", REVOKED: "badge--danger" } as const;

/** /admin/integrations: API tokens for the church's integrations (a lobby screen, a widget, a script). */
export function AdminIntegrationsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.integrations.title"));
  const { data, loading, error } = useAdminIntegrationsPage();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const tokens = data?.apiTokens ?? [];

  return (
    <div className="page">
      <h1>{t("admin.integrations.title")}</h1>
      <p className="muted">
        {t("admin.integrations.intro")} <a href="/developers">{t("admin.integrations.guide")}</a>
      </p>
      {created && (
        <NewSecret
          title={t("admin.integrations.created", { name: created.name })}
          text={t("admin.integrations.secretOnce")}
          label={t("admin.integrations.secret")}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      <CreateTokenForm onCreated={(name, secret) => setCreated({ name, secret })} />
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      <h2>{t("admin.integrations.listTitle")}</h2>
      {loading && !data ? (
        <Loading />
      ) : tokens.length === 0 ? (
        <p className="empty">{t("admin.integrations.empty")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("admin.integrations.name")}</th>
              <th scope="col">{t("admin.integrations.scopes")}</th>
              <th scope="col">{t("admin.integrations.lastUsed")}</th>
              <th scope="col">{t("admin.integrations.status")}</th>
              <th scope="col">{t("admin.integrations.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <TokenRow key={token.id} token={token} onNotice={setNotice} />
            ))}
          </tbody>
        </table>
      )}
      <WebhooksSection />
    </div>
  );
}

function CreateTokenForm({ onCreated }: { onCreated(name: string, secret: string): void }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const [createToken] = useCreateApiToken();
  const form = useForm({ name: "", expires: "" });
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <form
      className="card form integrations__create"
      aria-labelledby="create-token-title"
      noValidate
      onSubmit={form.submit(async ({ name, expires }) => {
        // The token works through the whole of the chosen day (in this browser's time zone).
        const expiresAt = expires ? new Date(`${expires}T23:59:59`).toISOString() : null;
        const result = await createToken({ variables: { input: { name, scopes, expiresAt } } });
        const created = result.data!.createApiToken;
        client.cache.updateQuery<AdminIntegrationsPageQuery>(
          { query: AdminIntegrationsPageDocument },
          (data) => (data ? { apiTokens: [created.token, ...data.apiTokens] } : data),
        );
        form.setValues({ name: "", expires: "" });
        setScopes([]);
        onCreated(created.token.name, created.secret);
      })}
    >
      <h2 id="create-token-title">{t("admin.integrations.new")}</h2>
      <TextField
        label={t("admin.integrations.name")}
        hint={t("admin.integrations.nameHint")}
        required
        maxLength={LIMITS.apiTokenNameMax}
        {...form.bind("name")}
        error={form.fieldError("name")}
      />
      <fieldset className="field">
        <legend>{t("admin.integrations.scopes")}</legend>
        <p className="field__hint">{t("admin.integrations.scopesHint")}</p>
        {SCOPES.map((scope) => {
          const hint = SCOPE_HINTS[scope];
          return (
            <Fragment key={scope}>
              <label className="field--checkbox">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  aria-describedby={hint ? `scope-hint-${scope}` : undefined}
                  onChange={(e) =>
                    setScopes((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))
                  }
                />
                <span>{t(`admin.integrations.scope.${scope}`)}</span>
              </label>
              {hint && (
                <p id={`scope-hint-${scope}`} className="field__hint">
                  {t(hint)}
                </p>
              )}
            </Fragment>
          );
        })}
      </fieldset>
      <TextField
        label={t("admin.integrations.expires")}
        optionalText={t("common.optional")}
        hint={t("admin.integrations.expiresHint")}
        type="date"
        min={today}
        {...form.bind("expires")}
        error={form.fieldError("expiresAt")}
      />
      {form.error && !Object.keys(form.error.fieldErrors).length && (
        <Alert kind="error">{form.error.message}</Alert>
      )}
      <div className="actions">
        <button type="submit" className="button" disabled={form.submitting} aria-busy={form.submitting}>
          {form.submitting ? t("admin.integrations.creating") : t("admin.integrations.create")}
        </button>
      </div>
    </form>
  );
}

function TokenRow({
  token,
  onNotice,
}: {
  token: AdminApiTokenFieldsFragment;
  onNotice(notice: Notice): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { format } = useChurchDateTime();
  const [revoke, { loading }] = useRevokeApiToken();
  return (
    <tr>
      <td data-label={t("admin.integrations.name")}>
        <strong>{token.name}</strong>
        <code className="block small">{token.hint}</code>
        <span className="block muted small">
          {t("admin.integrations.createdBy", {
            name: token.createdByName ?? "—",
            time: format(token.created),
          })}
          {token.expiresAt && ` · ${t("admin.integrations.expiresOn", { time: format(token.expiresAt) })}`}
        </span>
      </td>
      <td data-label={t("admin.integrations.scopes")}>
        {token.scopes.length
          ? token.scopes.map((scope) => t(`admin.integrations.scope.${scope}`)).join(" · ")
          : t("admin.integrations.publicOnly")}
      </td>
      <td data-label={t("admin.integrations.lastUsed")}>
        {token.lastUsedAt ? (
          <>
            {format(token.lastUsedAt)}
            {token.lastUsedIp && <span className="block muted small">{token.lastUsedIp}</span>}
          </>
        ) : (
          <span className="muted">{t("admin.integrations.neverUsed")}</span>
        )}
      </td>
      <td data-label={t("admin.integrations.status")}>
        <span className={`badge ${STATUS_BADGE[token.status]}`}>
          {t(`admin.integrations.status.${token.status}`)}
        </span>
      </td>
      <td data-label={t("admin.integrations.actions")} className="table__actions">
        {token.status !== "REVOKED" && (
          <button
            type="button"
            className="button button--danger-ghost button--small"
            disabled={loading}
            aria-label={t("admin.integrations.revokeNamed", { name: token.name })}
            onClick={() => {
              if (!window.confirm(t("admin.integrations.confirmRevoke", { name: token.name }))) return;
              revoke({ variables: { id: token.id } })
                .then(() =>
                  onNotice({ kind: "success", text: t("admin.integrations.revoked", { name: token.name }) }),
                )
                .catch((error: unknown) =>
                  onNotice({ kind: "error", text: handleError(error, i18n).message }),
                );
            }}
          >
            {t("admin.integrations.revoke")}
          </button>
        )}
      </td>
    </tr>
  );
}
