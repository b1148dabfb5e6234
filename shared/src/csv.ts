/**
 * CSV for spreadsheets (RFC 4180: comma-separated, CRLF lines, quotes doubled). A cell that starts
 * with = + - @, a tab or a carriage return is prefixed with ' so that a spreadsheet shows it as text
 * instead of running it as a formula (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: Array<string | number | boolean | null | undefined>) =>
  cells.map(csvCell).join(",");

export const toCsv = (header: string[], rows: Array<Array<string | number | boolean | null | undefined>>) =>
  [csvRow(header), ...rows.map(csvRow)].join("\r\n") + "\r\n";
