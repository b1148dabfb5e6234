import { useSearchParams } from "react-router";
import { formatCents } from "@flock/shared/money";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { useCalendarDates } from "../../lib/dates.ts";
import { handleError } from "../../lib/handleError.ts";
import { Alert } from "../../components/Alert.tsx";
import { SelectField } from "../../components/Field.tsx";
import { Loading } from "../../components/Loading.tsx";
import { useMyGiving, type MyGivingQuery } from "./MyGiving.generated.ts";
import { RecurringGifts } from "./RecurringGifts.tsx";
import { MyPledges } from "./MyPledges.tsx";
import "./my-giving.css";

type Gift = MyGivingQuery["myGiving"]["donations"][number];

/** Years offered: this one and the six before it (a statement is usually wanted for last year). */
const YEARS_BACK = 6;

/** The gateway's statement download for a year (GET, so the browser saves the PDF itself). */
export const statementUrl = (year: number) => `/giving/statement.pdf?year=${year}`;

/**
 * /me/giving: the member's gifts in a year (their own and, as an adult, their household's), the year's
 * totals with the tax-deductible part, and the year's statement as a PDF. The year is in the address
 * (?year=2025), so a link to last year's page stays one.
 */
export function MyGivingPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("giving.mine.title"));
  const thisYear = new Date().getFullYear();
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get("year"));
  const year =
    Number.isInteger(asked) && asked >= thisYear - YEARS_BACK && asked <= thisYear ? asked : thisYear;
  const { data, loading, error } = useMyGiving({ variables: { year }, fetchPolicy: "cache-and-network" });
  const giving = data?.myGiving;
  const money = (cents: number) => formatCents(cents, giving?.currency ?? "USD", locale);

  return (
    <section className="giving-mine" aria-labelledby="giving-mine-title">
      <h1 id="giving-mine-title">{t("giving.mine.title")}</h1>
      <p className="muted">{t("giving.mine.intro")}</p>
      <div className="toolbar">
        <SelectField
          label={t("giving.mine.year")}
          value={year}
          onChange={(e) => setParams(Number(e.target.value) === thisYear ? {} : { year: e.target.value })}
        >
          {Array.from({ length: YEARS_BACK + 1 }, (_, i) => thisYear - i).map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </SelectField>
      </div>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {!giving ? (
        loading && <Loading />
      ) : giving.donations.length === 0 ? (
        <p className="giving-mine__empty">{t("giving.mine.empty", { year })}</p>
      ) : (
        <>
          <dl className="giving-mine__totals" aria-label={t("giving.mine.totals", { year })}>
            <div>
              <dt>{t("giving.mine.total")}</dt>
              <dd>{money(giving.totalCents)}</dd>
            </div>
            <div>
              <dt>{t("giving.mine.deductible")}</dt>
              <dd>{money(giving.deductibleCents)}</dd>
            </div>
            <div>
              <dt>{t("giving.mine.nonDeductible")}</dt>
              <dd>{money(giving.totalCents - giving.deductibleCents)}</dd>
            </div>
          </dl>
          <p>
            <a className="button" href={statementUrl(year)} download>
              {t("giving.mine.download")}
            </a>{" "}
            <span className="muted">{t("giving.mine.downloadHint", { year })}</span>
          </p>
          <GiftTable gifts={giving.donations} year={year} money={money} />
        </>
      )}
      <RecurringGifts />
      <MyPledges />
    </section>
  );
}

function GiftTable({
  gifts,
  year,
  money,
}: {
  gifts: Gift[];
  year: number;
  money: (cents: number) => string;
}) {
  const { t } = useI18n();
  const { date } = useCalendarDates();
  // Who gave is worth a column only when the household's gifts are mixed in.
  const givers = new Set(gifts.map((gift) => gift.donor?.personId ?? ""));
  const showGiver = givers.size > 1;
  return (
    <table className="table giving-mine__gifts">
      <caption className="visually-hidden">{t("giving.mine.gifts", { year })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("giving.mine.date")}</th>
          <th scope="col">{t("giving.mine.funds")}</th>
          <th scope="col">{t("giving.mine.method")}</th>
          {showGiver && <th scope="col">{t("giving.mine.givenBy")}</th>}
          <th scope="col" className="giving-mine__amount">
            {t("giving.mine.amount")}
          </th>
        </tr>
      </thead>
      <tbody>
        {gifts.map((gift) => (
          <tr key={gift.id}>
            <td data-label={t("giving.mine.date")}>{date(gift.date)}</td>
            <td data-label={t("giving.mine.funds")}>
              {gift.splits
                .map((split) =>
                  gift.splits.length > 1
                    ? `${split.fund.name} (${money(split.amountCents)})`
                    : split.fund.name,
                )
                .join(", ")}
            </td>
            <td data-label={t("giving.mine.method")}>
              {gift.method === "CHEQUE" && gift.chequeNumber
                ? t("giving.mine.cheque", { number: gift.chequeNumber })
                : t("giving.mine.methodName", { method: gift.method })}
            </td>
            {showGiver && (
              <td data-label={t("giving.mine.givenBy")}>
                {gift.donor?.name ?? ""}
                {gift.individual && <span className="muted"> {t("giving.mine.individual")}</span>}
              </td>
            )}
            <td data-label={t("giving.mine.amount")} className="giving-mine__amount">
              {money(gift.amountCents)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
