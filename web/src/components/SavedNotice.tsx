/** A polite "Saved." that screen readers hear without losing their place. */
export function SavedNotice({ text }: { text: string | null }) {
  return (
    <span className="saved-notice" role="status">
      {text && (
        <>
          <span aria-hidden="true">✓ </span>
          {text}
        </>
      )}
    </span>
  );
}
