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

/**
 * The rows of a CSV file (RFC 4180, as spreadsheets write it): comma-separated, quoted cells may hold
 * commas, doubled quotes and line breaks; CRLF or LF lines; a UTF-8 byte-order mark is dropped. Blank
 * lines are skipped. `line` is the 1-based line each row starts on, for "row 12: …" messages. Null when
 * a quote is never closed (the file is cut off or not CSV).
 */
export function parseCsv(text: string): Array<{ line: number; cells: string[] }> | null {
  const rows: Array<{ line: number; cells: string[] }> = [];
  const source = text.replace(/^\uFEFF/, "");
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") rows.push({ line: rowLine, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[i + 1] === "\n") i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += char;
  }
  if (quoted) return null;
  if (cell !== "" || cells.length) endRow();
  return rows;
}
