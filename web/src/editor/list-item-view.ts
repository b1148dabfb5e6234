// The list item node view: Crepe's markup and look (theme/common/list-item.css), built without Vue
// and without moving the caret.
//
// Crepe 7.22.1's view (@milkdown/components list-item-block) mounts each item's content through
// Vue and, on the next animation frame, puts the selection back where it was when the item was
// created. Keys pressed within that frame (a fast typist after Enter, or any key while the page is
// busy) had already moved the caret: the restore sent the rest of the line to the old position, so
// "Three" was saved as "hree" with the "T" at the end of the document, and a double Enter did not
// leave the list. Here the content is in place synchronously, so ProseMirror's own selection is
// never overridden. (e2e/editor-typing.e2e.test.ts)
import { listItemSchema } from "@milkdown/kit/preset/commonmark";
import type { Node as ProseNode } from "@milkdown/kit/prose/model";
import type { NodeViewConstructor } from "@milkdown/kit/prose/view";
import { $view } from "@milkdown/kit/utils";

// Crepe's icons (src/icons), which its package does not export.
const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">${body}</svg>`;
const BULLET = svg('<circle cx="12" cy="12" r="3" />');
const CHECKED = svg(
  '<path d="M19 3H5C3.9 3 3 3.9 3 5V19C3 20.1 3.9 21 5 21H19C20.1 21 21 20.1 21 19V5C21 3.9 20.1 3 19 3ZM10.71 16.29C10.32 16.68 9.69 16.68 9.3 16.29L5.71 12.7C5.32 12.31 5.32 11.68 5.71 11.29C6.1 10.9 6.73 10.9 7.12 11.29L10 14.17L16.88 7.29C17.27 6.9 17.9 6.9 18.29 7.29C18.68 7.68 18.68 8.31 18.29 8.7L10.71 16.29Z" />',
);
const UNCHECKED = svg(
  '<path d="M18 19H6C5.45 19 5 18.55 5 18V6C5 5.45 5.45 5 6 5H18C18.55 5 19 5.45 19 6V18C19 18.55 18.55 19 18 19ZM19 3H5C3.9 3 3 3.9 3 5V19C3 20.1 3.9 21 5 21H19C20.1 21 21 20.1 21 19V5C21 3.9 20.1 3 19 3Z" />',
);

const listItemNodeView: NodeViewConstructor = (initialNode, view, getPos) => {
  const dom = document.createElement("div");
  dom.className = "milkdown-list-item-block";
  // <ul><div><li> would hide the list from assistive technology: the wrapper is the list item.
  dom.setAttribute("role", "listitem");
  const item = document.createElement("li");
  item.className = "list-item";
  item.setAttribute("role", "none");
  const labelWrapper = document.createElement("div");
  labelWrapper.className = "label-wrapper";
  labelWrapper.contentEditable = "false";
  const label = document.createElement("span");
  labelWrapper.appendChild(label);
  const children = document.createElement("div");
  children.className = "children";
  const contentDOM = document.createElement("div");
  contentDOM.setAttribute("data-content-dom", "true");
  contentDOM.className = "content-dom";
  children.appendChild(contentDOM);
  item.append(labelWrapper, children);
  dom.appendChild(item);

  let node = initialNode;
  const render = () => {
    const checked = node.attrs.checked as boolean | null | undefined;
    const bullet = node.attrs.listType === "bullet";
    const kind = checked == null ? (bullet ? "bullet" : "ordered") : checked ? "checked" : "unchecked";
    label.className = `milkdown-icon label ${kind}${view.editable ? "" : " readonly"}`;
    if (checked == null && !bullet) label.textContent = String(node.attrs.label ?? "");
    else label.innerHTML = checked == null ? BULLET : checked ? CHECKED : UNCHECKED;
  };
  render();

  // A task's box toggles on press (as in Crepe).
  labelWrapper.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    event.stopPropagation();
    if (node.attrs.checked == null || !view.editable) return;
    const pos = getPos();
    if (pos == null) return;
    if (!view.hasFocus()) view.focus();
    view.dispatch(view.state.tr.setNodeAttribute(pos, "checked", !node.attrs.checked));
  });

  return {
    dom,
    contentDOM,
    update: (updated: ProseNode) => {
      if (updated.type !== initialNode.type) return false;
      node = updated;
      render();
      return true;
    },
    ignoreMutation: (mutation) => {
      if ((mutation.type as string) === "selection") return false;
      if (mutation.target === contentDOM && mutation.type === "attributes") return true;
      return !contentDOM.contains(mutation.target);
    },
    selectNode: () => {
      dom.classList.add("selected");
      item.classList.add("ProseMirror-selectednode");
    },
    deselectNode: () => {
      dom.classList.remove("selected");
      item.classList.remove("ProseMirror-selectednode");
    },
  };
};

export const listItemView = $view(listItemSchema.node, () => listItemNodeView);
