import type { ReactNode } from "react";

/** Errors interrupt (role=alert); confirmations are announced politely (role=status). */
export function Alert({ kind, children }: { kind: "error" | "success" | "info" | "warning"; children: ReactNode }) {
  return (
    <div className={`alert alert--${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
