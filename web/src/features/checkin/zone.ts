import { useAppShell } from "../../gql/AppShell.generated.ts";

/** The church's time zone: every time on the check-in screens is shown in it. */
export function useChurchZone(): string {
  return useAppShell().data?.settings.timezone || "UTC";
}
