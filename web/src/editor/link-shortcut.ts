// Mod-K (Ctrl+K, ⌘K) opens the link field for the selected text, as in most editors: links need no
// mouse (WCAG 2.1.1). The same command as the toolbar's link button (removes a link when the
// selection has one).
import { toggleLinkCommand } from "@milkdown/kit/component/link-tooltip";
import { commandsCtx } from "@milkdown/kit/core";
import { keymap } from "@milkdown/kit/prose/keymap";
import { $prose } from "@milkdown/kit/utils";

export const linkShortcut = $prose((ctx) =>
  keymap({
    "Mod-k": (state) => {
      if (state.selection.empty) return false;
      return ctx.get(commandsCtx).call(toggleLinkCommand.key);
    },
  }),
);
