import PDFDocument from "pdfkit";
import { formatCents } from "@flock/shared/money";
import { translator, type Locale, type Translate } from "@flock/shared/i18n/server";
import type { StatementPeriod, StatementTotals } from "./statements.ts";

/*
 * A giving statement as a PDF (pdfkit): the church's name, logo and address, the donor unit's name and
 * address, the period, every gift (date, funds, method, amount), the totals apart by deductibility and
 * per fund, and the church's legal text. Written as a stream: the HTTP answer and the bulk run's zip
 * take the bytes as they come. The standard Helvetica keeps every page's text extractable (a reader's
 * search, a screen reader, the tests) and needs no font file; it covers Latin-1 (English, Spanish).
 */

/** What every statement of the church shares. */
export interface StatementBrand {
  churchName: string;
  /** Postal address, one line per line (may be empty). */
  churchAddress: string;
  /** PNG or JPEG bytes, or null (other formats are left out: pdfkit embeds only these). */
  logo: Uint8Array | null;
  locale: Locale;
  currency: string;
  /** The legal text at the foot (settings.statementText). */
  legalText: string;
  /** The day it is issued (YYYY-MM-DD, church time). */
  issuedOn: string;
}

/** Who the statement is for: the household (or person) and its postal address lines. */
export interface StatementDonor {
  name: string;
  addressLines: string[];
}

const MARGIN = 54;
const ROW = 16;
/** Column edges of the gift table, as parts of the text width. */
const COLUMNS = { date: 0, fund: 0.2, method: 0.62, amountEnd: 1 } as const;

/** A day (YYYY-MM-DD) in the church's language, e.g. "Mar 1, 2026" / "1 mar 2026". */
const formatDay = (day: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** Whether the bytes are an image pdfkit embeds (PNG or JPEG, by their magic bytes). */
export const embeddableImage = (bytes: Uint8Array | null): bytes is Uint8Array =>
  !!bytes &&
  ((bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) ||
    (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff));

/**
 * The statement as a pdfkit document: a readable stream of the PDF's bytes, ended when written. The
 * caller pipes it where it goes (an HTTP answer, a buffer for the zip).
 */
export function statementPdf(
  brand: StatementBrand,
  donor: StatementDonor,
  period: StatementPeriod,
  statement: StatementTotals,
): PDFKit.PDFDocument {
  const t = translator(brand.locale);
  const money = (cents: number) => formatCents(cents, brand.currency, brand.locale);
  // North American churches print on Letter, the rest of the world on A4.
  const size = ["USD", "CAD"].includes(brand.currency) ? "LETTER" : "A4";
  const doc = new PDFDocument({
    size,
    margin: MARGIN,
    info: { Title: `${t("giving.statement.title")}: ${donor.name}`, Author: brand.churchName },
    lang: brand.locale,
    displayTitle: true,
  });
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;

  // The church: logo, name and address.
  let headerBottom = MARGIN;
  if (embeddableImage(brand.logo)) {
    try {
      doc.image(Buffer.from(brand.logo), MARGIN, MARGIN, { fit: [56, 56] });
      headerBottom = MARGIN + 60;
    } catch {
      // A damaged image leaves the statement without a logo rather than without a statement.
    }
  }
  const textLeft = headerBottom > MARGIN ? MARGIN + 68 : MARGIN;
  doc
    .font("Helvetica-Bold")
    .fontSize(16)
    .text(brand.churchName, textLeft, MARGIN, { width: width - 68 });
  doc.font("Helvetica").fontSize(9);
  for (const line of brand.churchAddress.split("\n").filter((l) => l.trim()))
    doc.text(line.trim(), textLeft, undefined, { width: width - 68 });
  doc.y = Math.max(doc.y, headerBottom) + 18;

  // The statement and its donor.
  doc.font("Helvetica-Bold").fontSize(14).text(t("giving.statement.title"), MARGIN);
  doc
    .font("Helvetica")
    .fontSize(10)
    .text(
      t("giving.statement.period", {
        from: formatDay(period.from, brand.locale),
        to: formatDay(period.to, brand.locale),
      }),
    );
  doc.moveDown(0.8);
  doc.fontSize(9).fillColor("#555555").text(t("giving.statement.for")).fillColor("#000000");
  doc.font("Helvetica-Bold").fontSize(11).text(donor.name);
  doc.font("Helvetica").fontSize(10);
  for (const line of donor.addressLines) doc.text(line);
  doc.moveDown(1.2);

  // The gifts, oldest first; the table's head again on every new page.
  const column = (part: number) => MARGIN + width * part;
  const tableHead = () => {
    const y = doc.y;
    doc.font("Helvetica-Bold").fontSize(9);
    doc.text(t("giving.statement.date"), column(COLUMNS.date), y, { lineBreak: false });
    doc.text(t("giving.statement.fund"), column(COLUMNS.fund), y, { lineBreak: false });
    doc.text(t("giving.statement.method"), column(COLUMNS.method), y, { lineBreak: false });
    doc.text(t("giving.statement.amount"), MARGIN, y, { width, align: "right", lineBreak: false });
    doc
      .moveTo(MARGIN, y + ROW - 4)
      .lineTo(MARGIN + width, y + ROW - 4)
      .lineWidth(0.5)
      .stroke();
    doc.y = y + ROW;
    doc.font("Helvetica").fontSize(9);
  };
  const fundNames = new Map(statement.funds.map((f) => [f.fundId, f.name]));
  if (!statement.gifts.length) doc.fontSize(10).text(t("giving.statement.none"));
  else tableHead();
  for (const gift of statement.gifts) {
    const funds = gift.splits
      .map((s) =>
        gift.splits.length > 1
          ? `${fundNames.get(s.fund) ?? ""} ${money(s.amountCents)}`
          : fundNames.get(s.fund),
      )
      .join(", ");
    const fundWidth = width * (COLUMNS.method - COLUMNS.fund) - 8;
    const height = Math.max(ROW, doc.heightOfString(funds, { width: fundWidth }) + 4);
    if (doc.y + height > bottom()) {
      doc.addPage();
      tableHead();
    }
    const y = doc.y;
    const method =
      gift.method === "cheque" && gift.chequeNumber
        ? t("giving.statement.cheque", { number: gift.chequeNumber })
        : t("giving.statement.methodName", { method: gift.method });
    doc.text(formatDay(gift.date, brand.locale), column(COLUMNS.date), y, { lineBreak: false });
    doc.text(funds, column(COLUMNS.fund), y, { width: fundWidth });
    doc.text(method, column(COLUMNS.method), y, { lineBreak: false });
    doc.text(money(gift.amountCents), MARGIN, y, { width, align: "right", lineBreak: false });
    doc.y = y + height;
  }

  // The totals: per fund, then deductible and not, then all.
  writeTotals(doc, t, money, statement, { width, bottom });

  // The church's legal text.
  if (brand.legalText.trim()) {
    doc.moveDown(1.5);
    doc.font("Helvetica").fontSize(9).fillColor("#333333");
    doc.text(brand.legalText.trim(), MARGIN, undefined, { width });
  }
  doc.moveDown(1);
  doc
    .fontSize(8)
    .fillColor("#555555")
    .text(t("giving.statement.issued", { date: formatDay(brand.issuedOn, brand.locale) }), MARGIN);
  return doc;
}

function writeTotals(
  doc: PDFKit.PDFDocument,
  t: Translate,
  money: (cents: number) => string,
  statement: StatementTotals,
  page: { width: number; bottom: () => number },
) {
  const lines: { label: string; amount: string; bold?: boolean }[] = [
    ...statement.funds.map((fund) => ({
      label: fund.deductible ? t("giving.statement.deductibleFund", { name: fund.name }) : fund.name,
      amount: money(fund.amountCents),
    })),
    { label: t("giving.statement.deductible"), amount: money(statement.deductibleCents) },
    { label: t("giving.statement.nonDeductible"), amount: money(statement.nonDeductibleCents) },
    { label: t("giving.statement.total"), amount: money(statement.totalCents), bold: true },
  ];
  if (doc.y + (lines.length + 3) * ROW > page.bottom()) doc.addPage();
  doc.moveDown(1);
  if (statement.funds.length) {
    doc.font("Helvetica-Bold").fontSize(10).text(t("giving.statement.byFund"), MARGIN);
    doc.moveDown(0.3);
  }
  for (const [i, line] of lines.entries()) {
    // A rule between the funds and the totals.
    if (i === statement.funds.length) {
      doc
        .moveTo(MARGIN, doc.y + 2)
        .lineTo(MARGIN + page.width, doc.y + 2)
        .lineWidth(0.5)
        .stroke();
      doc.y += 6;
    }
    const y = doc.y;
    doc.font(line.bold ? "Helvetica-Bold" : "Helvetica").fontSize(10);
    doc.text(line.label, MARGIN, y, { lineBreak: false });
    doc.text(line.amount, MARGIN, y, { width: page.width, align: "right", lineBreak: false });
    doc.y = y + ROW;
  }
}
