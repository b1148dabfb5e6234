/** Words that name no one ("The Garcia family", "Familia García"): skipped when taking initials. */
const FILLER = new Set(["the", "family", "household", "familia", "hogar", "la", "los", "las", "el", "de"]);

/** Up to two letters from a name ("María José Núñez" → "MN", "The Garcia family" → "G"). */
export function initials(name: string): string {
  const all = name.trim().split(/\s+/).filter(Boolean);
  const meaningful = all.filter((w) => !FILLER.has(w.toLocaleLowerCase()));
  const words = meaningful.length ? meaningful : all;
  const first = words[0] ? Array.from(words[0])[0] : "";
  const last = words.length > 1 ? Array.from(words[words.length - 1]!)[0] : "";
  return `${first ?? ""}${last ?? ""}`.toLocaleUpperCase();
}

/**
 * A photo, or the initials on a tinted disc. Decorative (empty alt, hidden initials): the name is
 * always written next to it, so screen readers would only hear it twice.
 */
export function Avatar({
  name,
  src,
  size = "md",
  shape = "round",
}: {
  name: string;
  src: string | null | undefined;
  size?: "sm" | "md" | "lg" | "xl";
  shape?: "round" | "wide";
}) {
  const className = `avatar avatar--${size} avatar--${shape}`;
  if (src) return <img src={src} alt="" className={className} loading="lazy" decoding="async" />;
  return (
    <span className={`${className} avatar--initials`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
