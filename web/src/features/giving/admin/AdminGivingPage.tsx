import { useAdminGivingAccess } from "./AdminGiving.generated.ts";
import { useAppShell } from "../../../gql/AppShell.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { todayIn } from "../../../i18n/format.ts";
import { Alert } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { BatchesSection } from "./Batches.tsx";
import { FundsSection } from "./Funds.tsx";
import { TotalsSection } from "./Totals.tsx";
import { CampaignsSection } from "./Campaigns.tsx";
import { GivingNav } from "./GivingNav.tsx";

/**
 * /admin/giving — finance's workplace: batches of counted gifts (giving.view), the funds, and the totals
 * per fund and month (giving.view_summary sees only these, never a donor). What shows follows
 * `givingAccess`: the app shell does not carry giving's finer abilities.
 */
export function AdminGivingPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.giving.title"));
  const zone = useAppShell().data?.settings.timezone || "UTC";
  const { data, loading, error } = useAdminGivingAccess();
  if (error) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  if (loading || !data) return <Loading />;
  const access = data.givingAccess;
  return (
    <div className="admin-giving">
      <h1>{t("admin.giving.title")}</h1>
      <GivingNav view={access.view} manage={access.manage} />
      {!access.view && <p className="muted">{t("admin.giving.summaryOnly")}</p>}
      {access.view && <BatchesSection currency={access.currency} manage={access.manage} />}
      <TotalsSection currency={access.currency} thisYear={Number(todayIn(zone).slice(0, 4))} />
      {access.view && <CampaignsSection currency={access.currency} manage={access.manage} />}
      <FundsSection manage={access.manage} />
    </div>
  );
}
