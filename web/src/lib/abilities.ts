import { useAppShell } from "../gql/AppShell.generated.ts";
import type { ViewerFieldsFragment } from "../gql/AppShell.generated.ts";

/**
 * What the signed-in person may do, as the gateway says (`viewer.can`, from their roles as
 * PocketBase's rules grant it). Screens show and guard themselves by these abilities and never by
 * permission names; they only hide what would be refused — PocketBase's rules decide.
 */
export type Abilities = Omit<ViewerFieldsFragment["can"], "__typename">;
export type Ability = keyof Abilities;

const NONE: Abilities = {
  useAdmin: false,
  editContent: false,
  publishContent: false,
  useMediaLibrary: false,
  manageMedia: false,
  manageSermons: false,
  manageEvents: false,
  manageGroups: false,
  manageServing: false,
  operateCheckin: false,
  viewGivingSummary: false,
  viewPeople: false,
  managePeople: false,
  moderatePrayer: false,
  viewPastoralPrayer: false,
  manageSettings: false,
  manageRoles: false,
  manageIntegrations: false,
};

/** The viewer's abilities (all false for a visitor or while the shell loads). */
export function useAbilities(): Abilities {
  const { data } = useAppShell();
  return data?.viewer?.can ?? NONE;
}
