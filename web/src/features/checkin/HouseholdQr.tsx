import { useMemo } from "react";
import { encode } from "uqr";

/**
 * A household's QR code, drawn as SVG from its modules (no markup from a string): a station's scanner
 * reads it as typed text into the search (families.ts finds the household by it). Black on white with
 * the 4-module quiet zone scanners need, whatever the site's colours.
 */
export function HouseholdQr({ text, label }: { text: string; label: string }) {
  const qr = useMemo(() => encode(text, { ecc: "M", border: 4 }), [text]);
  const path = useMemo(() => {
    let d = "";
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return d;
  }, [qr]);
  return (
    <svg
      className="checkin-qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
