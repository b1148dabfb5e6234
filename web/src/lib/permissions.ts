import { useAbilities } from "./abilities.ts";

/** What the signed-in staff member may do with people (to hide what they cannot; PocketBase's rules decide). */
export function usePeoplePermissions() {
  const can = useAbilities();
  return { canView: can.viewPeople, canManage: can.managePeople };
}
