import { useRef, useState } from "react";
import {
  useAdminUsersPage,
  useResendVerification,
  useSetUserRoles,
  useSetUserStatus,
  type AdminUserFieldsFragment,
  type AdminUsersPageQuery,
} from "./admin.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { FormActions } from "../../components/FormActions.tsx";
import { useDebounced } from "../../lib/useDebounced.ts";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { appendEdges } from "../../lib/appendEdges.ts";

type Role = AdminUsersPageQuery["roles"][number];
const PAGE_SIZE = 25;

export function AdminUsersPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.users.title"));
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const { data, loading, error, fetchMore } = useAdminUsersPage({
    variables: { first: PAGE_SIZE, search: query || null },
  });
  const [notice, setNotice] = useState<Notice | null>(null);
  const users = data?.users.edges.map((e) => e.node) ?? [];

  return (
    <div className="page">
      <h1>{t("admin.users.title")}</h1>
      <div className="toolbar">
        <label className="search">
          <span className="visually-hidden">{t("admin.users.search")}</span>
          <input
            type="search"
            placeholder={t("admin.users.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        {data && <span className="muted">{t("admin.users.count", { count: data.users.totalCount })}</span>}
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : users.length === 0 ? (
        <p className="empty">{t("admin.users.empty")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("admin.users.name")}</th>
              <th scope="col">{t("admin.users.roles")}</th>
              <th scope="col">{t("admin.users.status")}</th>
              <th scope="col">{t("admin.users.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <UserRow key={user.id} user={user} roles={data?.roles ?? []} onNotice={setNotice} />
            ))}
          </tbody>
        </table>
      )}
      {data?.users.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: data.users.pageInfo.endCursor },
              updateQuery: appendEdges("users"),
            })
          }
        >
          {t("admin.users.loadMore")}
        </button>
      )}
      <RolesSummary roles={data?.roles ?? []} />
    </div>
  );
}

function UserRow({
  user,
  roles,
  onNotice,
}: {
  user: AdminUserFieldsFragment;
  roles: Role[];
  onNotice: (n: Notice) => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [setStatus, { loading: statusLoading }] = useSetUserStatus();
  const [resend, { loading: resendLoading }] = useResendVerification();
  const fail = (error: unknown) => onNotice({ kind: "error", text: handleError(error, i18n).message });
  const suspended = user.status === "SUSPENDED";
  return (
    <tr>
      <td data-label={t("admin.users.name")}>
        <strong>{user.name || user.email}</strong>
        <span className="block muted small">{user.email}</span>
        <span className={`badge ${user.verified ? "badge--ok" : "badge--warn"}`}>
          {user.verified ? t("admin.users.verified") : t("admin.users.unverified")}
        </span>
      </td>
      <td data-label={t("admin.users.roles")}>
        <RoleEditor user={user} roles={roles} onNotice={onNotice} />
      </td>
      <td data-label={t("admin.users.status")}>
        <span className={`badge ${suspended ? "badge--danger" : "badge--ok"}`}>
          {suspended ? t("admin.users.suspended") : t("admin.users.active")}
        </span>
      </td>
      <td data-label={t("admin.users.actions")} className="table__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={statusLoading}
          onClick={() => {
            if (
              !suspended &&
              !window.confirm(t("admin.users.confirmSuspend", { name: user.name || user.email }))
            )
              return;
            setStatus({ variables: { userId: user.id, status: suspended ? "ACTIVE" : "SUSPENDED" } })
              .then(() => onNotice({ kind: "success", text: t("admin.users.saved") }))
              .catch(fail);
          }}
        >
          {suspended ? t("admin.users.reactivate") : t("admin.users.suspend")}
        </button>
        {!user.verified && (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={resendLoading}
            onClick={() =>
              resend({ variables: { userId: user.id } })
                .then(() =>
                  onNotice({ kind: "success", text: t("admin.users.resent", { email: user.email }) }),
                )
                .catch(fail)
            }
          >
            {t("admin.users.resend")}
          </button>
        )}
      </td>
    </tr>
  );
}

function RoleEditor({
  user,
  roles,
  onNotice,
}: {
  user: AdminUserFieldsFragment;
  roles: Role[];
  onNotice: (n: Notice) => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const dialog = useRef<HTMLDialogElement>(null);
  const [selected, setSelected] = useState<string[]>(user.roles.map((r) => r.id));
  const [setRoles, { loading }] = useSetUserRoles();
  const name = user.name || user.email;
  return (
    <>
      <span className="chips">
        {user.roles.map((r) => (
          <span key={r.id} className="chip">
            {r.name}
          </span>
        ))}
      </span>
      <button
        type="button"
        className="link-button"
        aria-label={t("admin.users.editRoles", { name })}
        onClick={() => {
          setSelected(user.roles.map((r) => r.id));
          dialog.current?.showModal();
        }}
      >
        ✎ {t("admin.users.roles")}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={`roles-${user.id}`}>
        <form
          method="dialog"
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            setRoles({ variables: { userId: user.id, roleIds: selected } })
              .then(() => {
                dialog.current?.close();
                onNotice({ kind: "success", text: t("admin.users.saved") });
              })
              .catch((error: unknown) => {
                dialog.current?.close();
                onNotice({ kind: "error", text: handleError(error, i18n).message });
              });
          }}
        >
          <h2 id={`roles-${user.id}`}>{t("admin.users.editRoles", { name })}</h2>
          <fieldset>
            <legend className="visually-hidden">{t("admin.users.roles")}</legend>
            {roles.map((role) => (
              <label key={role.id} className="field--checkbox">
                <input
                  type="checkbox"
                  checked={selected.includes(role.id)}
                  onChange={(e) =>
                    setSelected((s) =>
                      e.target.checked ? [...s, role.id] : s.filter((id) => id !== role.id),
                    )
                  }
                />{" "}
                {role.name}
              </label>
            ))}
          </fieldset>
          <FormActions
            submitLabel={t("common.save")}
            busy={loading}
            onCancel={() => dialog.current?.close()}
          />
        </form>
      </dialog>
    </>
  );
}

function RolesSummary({ roles }: { roles: Role[] }) {
  const { t } = useI18n();
  if (!roles.length) return null;
  return (
    <section className="card roles" aria-labelledby="roles-title">
      <h2 id="roles-title">{t("admin.roles.title")}</h2>
      <p className="muted">{t("admin.roles.intro")}</p>
      <dl>
        {roles.map((role) => (
          <div key={role.id} className="roles__item">
            <dt>{role.name}</dt>
            <dd>{role.permissions.map((p) => t(`permission.${p}`)).join(" · ")}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
