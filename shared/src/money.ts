/**
 * Money in integer cents (issue 29): every amount the church keeps is a whole number of the currency's
 * smallest unit, so sums are exact and a statement adds up to the gifts it lists. Parsing what people
 * type, and the fee a donor may choose to cover, live here for the gateway and the web alike.
 */

/** Cents from what someone typed ("12", "12.5", "1,234.56"); null when it is not a positive amount with at most 2 decimals. */
export function parseAmount(text: string): number | null {
  const clean = text.trim().replace(/[\s,]/g, "");
  const match = /^(\d{1,11})(?:\.(\d{1,2}))?$/.exec(clean);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents > 0 ? cents : null;
}

/** The sum of amounts in cents (exact: integers). */
export const sumCents = (amounts: readonly number[]) => amounts.reduce((sum, amount) => sum + amount, 0);

/** Whether splits add up to their gift, each a whole positive number of cents. */
export function splitsBalance(amountCents: number, splits: readonly { amountCents: number }[]): boolean {
  return (
    splits.length > 0 &&
    splits.every((split) => Number.isInteger(split.amountCents) && split.amountCents > 0) &&
    sumCents(splits.map((split) => split.amountCents)) === amountCents
  );
}

/**
 * The provider's fee on a charge, in whole cents: `percent` % of it rounded half up to the cent (as card
 * providers round), plus `fixedCents`. In integers (the percent in hundredths: 2.9 % is 290/10,000), since
 * in floating point 500 × 0.029 is 14.499999999999998 and would round down a fee of exactly 14.5¢.
 */
export function providerFee(chargeCents: number, fee: { percent: number; fixedCents: number }): number {
  const hundredthsOfPercent = Math.round(fee.percent * 100);
  return Math.floor((chargeCents * hundredthsOfPercent + 5000) / 10000) + fee.fixedCents;
}

/**
 * What to charge so that the church receives `amountCents` after the provider's fee of `percent` % plus
 * `fixedCents` (a donor who chooses to cover the fee): the smallest whole-cent charge whose fee
 * (providerFee) leaves at least the gift. Starts from ceil((amount + fixed) / (1 − percent/100)) and steps a
 * cent either way for the fee's rounding.
 */
export function coverFee(amountCents: number, fee: { percent: number; fixedCents: number }): number {
  const leaves = (charge: number) => charge - providerFee(charge, fee);
  let charge = Math.ceil((amountCents + fee.fixedCents) / (1 - fee.percent / 100));
  while (charge > amountCents && leaves(charge - 1) >= amountCents) charge -= 1;
  while (leaves(charge) < amountCents) charge += 1;
  return charge;
}

/** An amount for people: the currency's symbol and separators in their language. */
export function formatCents(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}
