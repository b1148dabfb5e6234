import type { ReactNode } from "react";
import { Link } from "react-router";
import { useMyAccount, type MyAccountQuery } from "./account.generated.ts";
import type { PhoneKind, Visibility } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { handleError } from "../../lib/handleError.ts";

export type MyPerson = NonNullable<NonNullable<MyAccountQuery["viewer"]>["person"]>;
export type MyHousehold = NonNullable<MyPerson["household"]>;

export const VISIBILITIES: Visibility[] = ["PRIVATE", "LEADERS", "GROUPS", "MEMBERS"];
export const PHONE_KINDS: PhoneKind[] = ["MOBILE", "HOME", "WORK", "OTHER"];

export interface MyAccount {
  person: MyPerson;
  household: MyHousehold | null;
  loginEmail: string;
  isMember: boolean;
}

/**
 * The member's own record for the /me pages, with the loading, error and "no person yet" states
 * handled once. Every /me page reads the same query, so moving between them costs no request.
 */
export function MyAccountGate({ children }: { children: (account: MyAccount) => ReactNode }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, loading, error, refetch } = useMyAccount({ fetchPolicy: "cache-and-network" });
  const viewer = data?.viewer;
  if (!viewer) {
    if (loading) return <Loading />;
    return (
      <Alert kind="error">
        {error ? handleError(error, i18n).message : t("error.UNKNOWN")}{" "}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          {t("errorPage.retry")}
        </button>
      </Alert>
    );
  }
  if (!viewer.person) {
    return (
      <div className="empty">
        <p>{t("me.noPerson")}</p>
        <Link to="/me">{t("me.backToOverview")}</Link>
      </div>
    );
  }
  return (
    <>
      {children({
        person: viewer.person,
        household: viewer.person.household,
        loginEmail: viewer.user.email,
        isMember: viewer.isMember,
      })}
    </>
  );
}
