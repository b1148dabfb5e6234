import { useState } from "react";
import { useApolloClient } from "@apollo/client/react";
import {
  AdminWebhooksDocument,
  useAdminWebhooks,
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliverWebhook,
  useSetWebhookEnabled,
  type AdminWebhookFieldsFragment,
  type AdminWebhooksQuery,
} from "./integrations.generated.ts";
import type { WebhookEvent } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { CheckboxField, TextField } from "../../../components/Field.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { useForm } from "../../../lib/useForm.ts";
import { LIMITS } from "@flock/shared/limits";
import { NewSecret } from "./NewSecret.tsx";

const EVENTS: WebhookEvent[] = [
  "POST_PUBLISHED",
  "POST_UPDATED",
  "PAGE_PUBLISHED",
  "SERMON_PUBLISHED",
  "EVENT_PUBLISHED",
  "PRAYER_APPROVED",
  "PRAYER_ANSWERED",
  "PERSON_CREATED",
  "VISIT_CREATED",
  "SERVING_ACCEPTED",
  "SERVING_DECLINED",
];
const DELIVERY_BADGE = { PENDING: "badge--warn", SUCCEEDED: "badge--ok", FAILED: "badge--danger" } as const;

/** The webhooks part of /admin/integrations: subscribe a URL to events, and see what was delivered. */
export function WebhooksSection() {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, loading, error } = useAdminWebhooks();
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const webhooks = data?.webhooks ?? [];
  return (
    <section aria-labelledby="webhooks-title" className="integrations__webhooks">
      <h2 id="webhooks-title">{t("admin.webhooks.title")}</h2>
      <p className="muted">{t("admin.webhooks.intro")}</p>
      {created && (
        <NewSecret
          title={t("admin.webhooks.created", { url: created.url })}
          text={t("admin.webhooks.secretOnce")}
          label={t("admin.webhooks.secret")}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      <CreateWebhookForm onCreated={(url, secret) => setCreated({ url, secret })} />
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : webhooks.length === 0 ? (
        <p className="empty">{t("admin.webhooks.empty")}</p>
      ) : (
        webhooks.map((webhook) => <WebhookCard key={webhook.id} webhook={webhook} onNotice={setNotice} />)
      )}
    </section>
  );
}

function CreateWebhookForm({ onCreated }: { onCreated(url: string, secret: string): void }) {
  const { t } = useI18n();
  const client = useApolloClient();
  const [createWebhook] = useCreateWebhook();
  const form = useForm({ url: "", description: "" });
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [allowPrivateHost, setAllowPrivateHost] = useState(false);
  return (
    <form
      className="card form integrations__create"
      aria-labelledby="create-webhook-title"
      noValidate
      onSubmit={form.submit(async ({ url, description }) => {
        const result = await createWebhook({
          variables: { input: { url: url.trim(), description, events, allowPrivateHost } },
        });
        const created = result.data!.createWebhook;
        client.cache.updateQuery<AdminWebhooksQuery>({ query: AdminWebhooksDocument }, (data) =>
          data ? { webhooks: [created.webhook, ...data.webhooks] } : data,
        );
        form.setValues({ url: "", description: "" });
        setEvents([]);
        setAllowPrivateHost(false);
        onCreated(created.webhook.url, created.secret);
      })}
    >
      <h2 id="create-webhook-title">{t("admin.webhooks.new")}</h2>
      <TextField
        label={t("admin.webhooks.url")}
        hint={t("admin.webhooks.urlHint")}
        type="url"
        inputMode="url"
        required
        maxLength={LIMITS.webhookUrlMax}
        spellCheck={false}
        {...form.bind("url")}
        error={form.fieldError("url")}
      />
      <TextField
        label={t("admin.webhooks.description")}
        optionalText={t("common.optional")}
        maxLength={LIMITS.webhookDescriptionMax}
        {...form.bind("description")}
        error={form.fieldError("description")}
      />
      <fieldset
        className="field"
        aria-describedby={form.fieldError("events") ? "webhook-events-error" : undefined}
      >
        <legend>{t("admin.webhooks.events")}</legend>
        {EVENTS.map((event) => (
          <label key={event} className="field--checkbox">
            <input
              type="checkbox"
              checked={events.includes(event)}
              onChange={(e) =>
                setEvents((s) => (e.target.checked ? [...s, event] : s.filter((x) => x !== event)))
              }
            />
            <span>{t(`admin.webhooks.event.${event}`)}</span>
          </label>
        ))}
        {form.fieldError("events") && (
          <p className="field__error" id="webhook-events-error">
            {form.fieldError("events")}
          </p>
        )}
      </fieldset>
      <CheckboxField
        label={t("admin.webhooks.allowPrivate")}
        hint={t("admin.webhooks.allowPrivateHint")}
        checked={allowPrivateHost}
        onChange={(e) => setAllowPrivateHost(e.target.checked)}
      />
      {form.error && !Object.keys(form.error.fieldErrors).length && (
        <Alert kind="error">{form.error.message}</Alert>
      )}
      <div className="actions">
        <button type="submit" className="button" disabled={form.submitting} aria-busy={form.submitting}>
          {form.submitting ? t("admin.integrations.creating") : t("admin.webhooks.create")}
        </button>
      </div>
    </form>
  );
}

function WebhookCard({
  webhook,
  onNotice,
}: {
  webhook: AdminWebhookFieldsFragment;
  onNotice(notice: Notice): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const { format } = useChurchDateTime();
  const client = useApolloClient();
  const [setEnabled, { loading: switching }] = useSetWebhookEnabled();
  const [remove, { loading: removing }] = useDeleteWebhook();
  const [redeliver] = useRedeliverWebhook();
  const fail = (error: unknown) => onNotice({ kind: "error", text: handleError(error, i18n).message });
  return (
    <article className="card integrations__webhook" aria-label={webhook.url}>
      <div className="integrations__webhook-head">
        <div>
          <code className="integrations__url">{webhook.url}</code>
          {webhook.description && <p className="small">{webhook.description}</p>}
          <p className="muted small">
            {webhook.events.map((event) => t(`admin.webhooks.event.${event}`)).join(" · ")}
          </p>
        </div>
        <span className={`badge ${webhook.enabled ? "badge--ok" : "badge--danger"}`}>
          {webhook.enabled ? t("admin.webhooks.on") : t("admin.webhooks.off")}
        </span>
      </div>
      {!webhook.enabled && webhook.disabledReason && <Alert kind="warning">{webhook.disabledReason}</Alert>}
      <div className="actions">
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={switching}
          onClick={() =>
            void setEnabled({ variables: { id: webhook.id, enabled: !webhook.enabled } })
              .then(() =>
                onNotice({
                  kind: "success",
                  text: webhook.enabled ? t("admin.webhooks.turnedOff") : t("admin.webhooks.turnedOn"),
                }),
              )
              .catch(fail)
          }
        >
          {webhook.enabled ? t("admin.webhooks.turnOff") : t("admin.webhooks.turnOn")}
        </button>
        <button
          type="button"
          className="button button--danger-ghost button--small"
          disabled={removing}
          onClick={() => {
            if (!window.confirm(t("admin.webhooks.confirmDelete", { url: webhook.url }))) return;
            void remove({ variables: { id: webhook.id } })
              .then(() => {
                client.cache.updateQuery<AdminWebhooksQuery>({ query: AdminWebhooksDocument }, (data) =>
                  data ? { webhooks: data.webhooks.filter((w) => w.id !== webhook.id) } : data,
                );
                onNotice({ kind: "success", text: t("admin.webhooks.deleted") });
              })
              .catch(fail);
          }}
        >
          {t("admin.webhooks.delete")}
        </button>
      </div>
      <details className="integrations__log">
        <summary>{t("admin.webhooks.log", { count: webhook.deliveries.length })}</summary>
        {webhook.deliveries.length === 0 ? (
          <p className="muted small">{t("admin.webhooks.noDeliveries")}</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("admin.webhooks.when")}</th>
                <th scope="col">{t("admin.webhooks.event")}</th>
                <th scope="col">{t("admin.webhooks.result")}</th>
                <th scope="col">{t("admin.integrations.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {webhook.deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td data-label={t("admin.webhooks.when")}>{format(delivery.created)}</td>
                  <td data-label={t("admin.webhooks.event")}>
                    {t(`admin.webhooks.event.${delivery.event}`)}
                  </td>
                  <td data-label={t("admin.webhooks.result")}>
                    <span className={`badge ${DELIVERY_BADGE[delivery.status]}`}>
                      {t(`admin.webhooks.status.${delivery.status}`)}
                    </span>{" "}
                    <span className="small">
                      {t("admin.webhooks.attempts", { count: delivery.attempts })}
                      {delivery.responseStatus ? ` · HTTP ${delivery.responseStatus}` : ""}
                    </span>
                    {delivery.error && <span className="block muted small">{delivery.error}</span>}
                  </td>
                  <td data-label={t("admin.integrations.actions")}>
                    {delivery.status !== "PENDING" && (
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        onClick={() =>
                          void redeliver({ variables: { deliveryId: delivery.id } })
                            .then(() => onNotice({ kind: "success", text: t("admin.webhooks.redelivering") }))
                            .catch(fail)
                        }
                      >
                        {t("admin.webhooks.redeliver")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </article>
  );
}
