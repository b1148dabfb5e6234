/** 754 → "12:34", 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** "?t=754", "?t=12:34" or "?t=1h2m5s" → seconds, or null. */
export function parseStartTime(value: string | null): number | null {
  if (!value) return null;
  if (/^\d{1,6}$/.test(value)) return Number(value);
  const clock = /^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})$/.exec(value);
  if (clock) return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  const units = /^(?:(\d{1,2})h)?(?:(\d{1,3})m)?(?:(\d{1,5})s)?$/.exec(value);
  if (units && value)
    return Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  return null;
}

const KEY = "flock:sermon-position:";

/** The position remembered on this device for a sermon (seconds), or 0. */
export function rememberedPosition(sermonId: string): number {
  try {
    const value = Number(window.localStorage.getItem(KEY + sermonId));
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

export function rememberPosition(sermonId: string, seconds: number): void {
  try {
    if (seconds > 0) window.localStorage.setItem(KEY + sermonId, String(Math.floor(seconds)));
    else window.localStorage.removeItem(KEY + sermonId);
  } catch {
    // Private mode or storage full: playback still works, it just isn't remembered.
  }
}
