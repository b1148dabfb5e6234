/**
 * PocketBase sends each realtime change from a goroutine of its own (apis/realtime.go), so two quick
 * changes of one record can reach a subscriber in either order. For a record that counts its versions
 * (occurrence_counts.version), this passes on a change only when it is not older than the newest one
 * passed on already: the subscriber ends on the record's last state, whatever the order of arrival.
 */
export class NewestVersion {
  private newest = -1;

  /** True when a change at `version` should be passed on (and remembers it as the newest). */
  accept(version: number): boolean {
    if (version < this.newest) return false;
    this.newest = version;
    return true;
  }

  /** A state read from the database (after a resync) is the newest known, whatever came before. */
  reset(version: number): void {
    this.newest = version;
  }
}
