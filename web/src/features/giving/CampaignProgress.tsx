import "./campaign-progress.css";

/**
 * Progress toward a goal: a native <progress> (announced by screen readers with its label) and the
 * figure in words beside it, since a bar alone says nothing to someone who cannot see it or judge its
 * length. Each screen words the figure from its own catalog.
 */
export function CampaignProgress({
  label,
  valueCents,
  goalCents,
  figure,
}: {
  label: string;
  valueCents: number;
  goalCents: number;
  figure: string;
}) {
  // Past the goal the bar is full; the words still say how far past.
  return (
    <div className="campaign-progress">
      <progress aria-label={label} max={Math.max(goalCents, 1)} value={Math.min(valueCents, goalCents)} />
      <p className="campaign-progress__figure">{figure}</p>
    </div>
  );
}

/** Whole percent of the goal reached (0 without a goal). */
export const percentOf = (valueCents: number, goalCents: number) =>
  goalCents > 0 ? Math.floor((valueCents / goalCents) * 100) : 0;
