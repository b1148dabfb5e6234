import { useEffect } from "react";
import { useAppShell } from "../gql/AppShell.generated.ts";

/** "Page · Church name" in the tab, matching what the server put in the HTML. */
export function usePageTitle(page: string | null) {
  const { data } = useAppShell();
  const church = data?.settings.churchName;
  useEffect(() => {
    if (!church) return;
    document.title = page
      ? `${page} · ${church}`
      : data?.settings.tagline
        ? `${church} · ${data.settings.tagline}`
        : church;
  }, [page, church, data?.settings.tagline]);
}
