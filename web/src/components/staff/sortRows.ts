/** A column's value to sort by: text sorts by the reader's language, numbers and dates by size. */
export type SortValue = string | number | null | undefined;

/**
 * Rows sorted by one column, stably (equal values keep their order); empty values last either way, so
 * "no next date" never heads the list.
 */
export function sortRows<T>(
  rows: readonly T[],
  value: (row: T) => SortValue,
  direction: "ascending" | "descending",
  locale: string,
): T[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: "base" });
  const sign = direction === "ascending" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      const aEmpty = a.key === null || a.key === undefined || a.key === "";
      const bEmpty = b.key === null || b.key === undefined || b.key === "";
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      const order =
        typeof a.key === "number" && typeof b.key === "number"
          ? a.key - b.key
          : collator.compare(String(a.key), String(b.key));
      return order * sign || a.index - b.index;
    })
    .map(({ row }) => row);
}
