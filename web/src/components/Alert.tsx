import type { ReactNode } from "react";

/** The outcome of an action, shown in an <Alert> (success or error); screens hold `Notice | null`. */
export type Notice = { kind: "success" | "error"; text: string };

/** Errors interrupt (role=alert); confirmations are announced politely (role=status). */
export function Alert({
  kind,
  children,
}: {
  kind: "error" | "success" | "info" | "warning";
  children: ReactNode;
}) {
  return (
    <div className={`alert alert--${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
