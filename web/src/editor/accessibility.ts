// ARIA repairs for markup Crepe 7.22.1 renders inside the editing area.
import { Plugin, PluginKey } from "@milkdown/kit/prose/state";
import { $prose } from "@milkdown/kit/utils";

/**
 * Crepe's list item view wraps each <li> in a <div> (its Vue mount point), so the list is
 * `<ul><div><li>`: assistive technology sees neither a list nor its items (axe: list, listitem).
 * The wrapper takes the list item role and the inner <li> steps aside.
 */
function repairLists(root: HTMLElement): void {
  for (const wrapper of root.querySelectorAll<HTMLElement>(".milkdown-list-item-block:not([role])")) {
    wrapper.setAttribute("role", "listitem");
    wrapper.querySelector(":scope > li")?.setAttribute("role", "none");
  }
}

export const accessibility = $prose(
  () =>
    new Plugin({
      key: new PluginKey("FLOCK_ACCESSIBILITY"),
      view: (view) => {
        repairLists(view.dom);
        return { update: () => repairLists(view.dom) };
      },
    }),
);
