// Staff's attendee list as CSV (for spreadsheets).

export const csvCell = (value: unknown) => {
  const text = String(value ?? "");
  // A leading = + - @ would be a formula in spreadsheet apps.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
