import { formatCents } from "@flock/shared/money";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { CampaignProgress, percentOf } from "./CampaignProgress.tsx";
import { useMyPledges } from "./MyPledges.generated.ts";

/**
 * /me/giving's pledges: what the member (and, as an adult, their household) promised toward each
 * campaign, and how much their household has given to the campaign's fund in its period so far. Nothing
 * shows for someone who has not pledged.
 */
export function MyPledges() {
  const { t, locale } = useI18n();
  const me = useAppShell().data?.viewer?.person?.id;
  const { data } = useMyPledges({ fetchPolicy: "cache-and-network" });
  const pledges = data?.myPledges ?? [];
  if (!pledges.length) return null;
  const money = (cents: number) => formatCents(cents, data?.givingAccess.currency ?? "USD", locale);
  return (
    <section className="giving-pledges" aria-labelledby="giving-pledges-title">
      <h2 id="giving-pledges-title">{t("giving.pledges.title")}</h2>
      <ul className="stack">
        {pledges.map((pledge) => (
          <li key={pledge.id} className="card">
            <h3>{pledge.campaign.name}</h3>
            <p className="muted">
              {t("giving.pledges.period", { from: pledge.campaign.startsOn, to: pledge.campaign.endsOn })}
              {pledge.campaign.status === "CLOSED" ? ` · ${t("giving.pledges.closed")}` : ""}
              {pledge.donor && pledge.donor.personId !== me
                ? ` · ${t("giving.pledges.by", { name: pledge.donor.name })}`
                : ""}
            </p>
            <CampaignProgress
              label={t("giving.pledges.progressOf", { name: pledge.campaign.name })}
              valueCents={pledge.givenCents}
              goalCents={pledge.amountCents}
              figure={t("giving.pledges.given", {
                given: money(pledge.givenCents),
                pledged: money(pledge.amountCents),
                percent: percentOf(pledge.givenCents, pledge.amountCents),
              })}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
