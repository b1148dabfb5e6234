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
 * What to charge so that the church receives `amountCents` after the provider's fee of `percent` % plus
 * `fixedCents` (a donor who chooses to cover the fee): the smallest whole-cent charge whose fee, rounded to
 * the cent as providers round it, leaves at least the gift.
 */
export function coverFee(amountCents: number, fee: { percent: number; fixedCents: number }): number {
  const rate = fee.percent / 100;
  let charge = Math.ceil((amountCents + fee.fixedCents) / (1 - rate));
  // Providers round the fee half up; step back while a cent less still leaves the whole gift.
  const leaves = (gross: number) => gross - Math.round(gross * rate) - fee.fixedCents;
  while (charge > amountCents && leaves(charge - 1) >= amountCents) charge -= 1;
  while (leaves(charge) < amountCents) charge += 1;
  return charge;
}

/** An amount for people: the currency's symbol and separators in their language. */
export function formatCents(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}
