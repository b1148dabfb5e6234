import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { handleError } from "../../lib/handleError.ts";
import { Alert } from "../../components/Alert.tsx";
import { useMyGroups } from "../groups/groups.generated.ts";

/** /me's "My groups": the groups the member belongs to (hidden ones too), with their unread chat. */
export function MyGroupsCard() {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, error } = useMyGroups({ fetchPolicy: "cache-and-network" });
  const groups = data?.myGroups ?? [];
  return (
    <section className="card" aria-labelledby="me-groups">
      <h2 id="me-groups">{t("me.groupsTitle")}</h2>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {groups.length ? (
        <ul>
          {groups.map((g) => (
            <li key={g.id}>
              <Link to={g.path}>{g.name}</Link>
              {g.unreadCount > 0 && (
                <span className="small"> {t("me.groupsUnread", { count: g.unreadCount })}</span>
              )}
              {g.schedule && (
                <>
                  <br />
                  <span className="small">{g.schedule}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("me.groupsNone")}</p>
      )}
      <p>
        <Link to="/groups">{t("me.groupsFind")}</Link>
      </p>
    </section>
  );
}
