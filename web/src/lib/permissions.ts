import { useAppShell } from "../gql/AppShell.generated.ts";

/** What the signed-in staff member may do here (to hide what they cannot; PocketBase's rules decide). */
export function usePeoplePermissions() {
  const { data } = useAppShell();
  const permissions = data?.viewer?.permissions ?? [];
  return {
    canView: permissions.includes("PEOPLE_VIEW") || permissions.includes("PEOPLE_MANAGE"),
    canManage: permissions.includes("PEOPLE_MANAGE"),
  };
}
