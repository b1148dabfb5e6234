// Milkdown Crepe, assembled feature by feature. `new Crepe()` imports every feature statically
// (LaTeX/KaTeX, CodeMirror with every language, AI), so disabling them in its options does not
// shrink the bundle; CrepeBuilder + addFeature only bundles what is added here.
import { CrepeBuilder } from "@milkdown/crepe/builder";
import { blockEdit } from "@milkdown/crepe/feature/block-edit";
import { cursor } from "@milkdown/crepe/feature/cursor";
import { imageBlock } from "@milkdown/crepe/feature/image-block";
import { linkTooltip } from "@milkdown/crepe/feature/link-tooltip";
import { placeholder } from "@milkdown/crepe/feature/placeholder";
import { table } from "@milkdown/crepe/feature/table";
import { toolbar } from "@milkdown/crepe/feature/toolbar";
import { imageBlockSchema } from "@milkdown/kit/component/image-block";
import { editorViewOptionsCtx, remarkStringifyOptionsCtx } from "@milkdown/kit/core";
import { imageSchema, remarkPreserveEmptyLinePlugin } from "@milkdown/kit/preset/commonmark";
import { extendListItemSchemaForTask } from "@milkdown/kit/preset/gfm";
import { uploadConfig } from "@milkdown/kit/plugin/upload";
import type { Node as ProseNode } from "@milkdown/kit/prose/model";
import { Decoration } from "@milkdown/kit/prose/view";
import type { EditorMessages } from "./messages.ts";
import { accessibility } from "./accessibility.ts";
import { linkShortcut } from "./link-shortcut.ts";
import { listItemView } from "./list-item-view.ts";
import { markdownStyle } from "./markdown-style.ts";

// Per-feature styles instead of theme/common/style.css, which also carries the LaTeX, CodeMirror,
// top bar, AI and diff styles (KaTeX's fonts among them). classic.css only defines the variables
// that editor.css maps onto the app's design tokens.
import "@milkdown/crepe/theme/common/prosemirror.css";
import "@milkdown/crepe/theme/common/reset.css";
import "@milkdown/crepe/theme/common/block-edit.css";
import "@milkdown/crepe/theme/common/cursor.css";
import "@milkdown/crepe/theme/common/image-block.css";
import "@milkdown/crepe/theme/common/link-tooltip.css";
import "@milkdown/crepe/theme/common/list-item.css";
import "@milkdown/crepe/theme/common/placeholder.css";
import "@milkdown/crepe/theme/common/toolbar.css";
import "@milkdown/crepe/theme/common/table.css";
import "@milkdown/crepe/theme/classic.css";
import "./editor.css";

/** URLs that only exist in this browser tab: never written to the Markdown. */
export const isEphemeral = (url: unknown) => typeof url === "string" && /^\s*blob:/i.test(url);

export interface CreateEditorOptions {
  root: HTMLElement;
  markdown: string;
  /** Accessible name of the editing area. */
  label: string;
  messages: EditorMessages;
  /** Resolves with a stable URL; rejects when the upload failed (the caller shows the error). */
  upload(file: File): Promise<string>;
}

/**
 * Crepe with the features Flock uses (no LaTeX, AI, top bar or CodeMirror: code blocks stay plain),
 * configured to write Markdown back as it was read wherever Markdown allows. Not created yet.
 */
export async function createEditor({
  root,
  markdown,
  label,
  messages: m,
  upload,
}: CreateEditorOptions): Promise<CrepeBuilder> {
  const crepe = new CrepeBuilder({ root, defaultValue: markdown })
    .addFeature(cursor)
    .addFeature(linkTooltip, { inputPlaceholder: m.linkPlaceholder })
    .addFeature(imageBlock, {
      onUpload: upload,
      blockUploadButton: m.uploadButton,
      inlineUploadButton: m.uploadButton,
      blockUploadPlaceholderText: m.uploadPlaceholder,
      inlineUploadPlaceholderText: m.uploadPlaceholder,
      blockConfirmButton: m.confirm,
      blockCaptionPlaceholderText: m.altTextPlaceholder,
    })
    .addFeature(blockEdit, {
      textGroup: {
        label: m.groupText,
        text: { label: m.text },
        h1: { label: m.heading1 },
        h2: { label: m.heading2 },
        h3: { label: m.heading3 },
        h4: { label: m.heading4 },
        h5: { label: m.heading5 },
        h6: { label: m.heading6 },
        quote: { label: m.quote },
        divider: { label: m.divider },
      },
      listGroup: {
        label: m.groupList,
        bulletList: { label: m.bulletList },
        orderedList: { label: m.orderedList },
        taskList: { label: m.taskList },
      },
      advancedGroup: {
        label: m.groupAdvanced,
        image: { label: m.image },
        codeBlock: { label: m.codeBlock },
        table: { label: m.table },
        math: null,
      },
    })
    .addFeature(placeholder, { text: m.placeholder, mode: "block" })
    .addFeature(toolbar, {
      boldLabel: m.bold,
      italicLabel: m.italic,
      strikethroughLabel: m.strikethrough,
      codeLabel: m.inlineCode,
      linkLabel: m.link,
    })
    .addFeature(table);

  crepe.editor.config((ctx) => {
    // How Markdown is written back (NORMALISATION.md): "-" bullets, "---" rules, bare URLs kept
    // bare, no blank lines for empty paragraphs.
    ctx.update(remarkStringifyOptionsCtx, (prev) => markdownStyle(prev));

    // The editable region's accessible name and role (ProseMirror keeps these attributes in sync).
    ctx.update(editorViewOptionsCtx, (prev) => ({
      ...prev,
      attributes: () => ({
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        "aria-readonly": String(crepe.readonly),
        spellcheck: "true",
      }),
    }));

    // Pasted and dropped images. Crepe's uploader awaits every file together and the upload plugin
    // leaves its placeholder behind when that rejects; here a failed file is skipped (the caller
    // shows the error) and the others are still inserted.
    ctx.update(uploadConfig.key, (prev) => ({
      ...prev,
      uploadWidgetFactory: (pos, spec) => {
        const widget = document.createElement("span");
        widget.className = "markdown-editor__upload-widget";
        widget.textContent = m.uploading;
        return Decoration.widget(pos, widget, spec);
      },
      uploader: async (files, schema) => {
        const nodeType = schema.nodes["image-block"];
        if (!nodeType) return [];
        const images = Array.from(files).filter((file) => file.type.startsWith("image/"));
        const nodes = await Promise.all(
          images.map(async (file): Promise<ProseNode | null> => {
            try {
              return nodeType.createAndFill({ src: await upload(file) });
            } catch {
              return null;
            }
          }),
        );
        return nodes.filter((node): node is ProseNode => node !== null);
      },
    }));

    // A list item typed in the editor is tight: Milkdown's default (spread) wrote a blank line
    // between an item's text and a nested list typed under it, which makes the whole list loose
    // (every item a paragraph). Loaded Markdown keeps the spread it was written with.
    ctx.update(extendListItemSchemaForTask.key, (prev) => (schemaCtx) => {
      const base = prev(schemaCtx);
      return { ...base, attrs: { ...base.attrs, spread: { default: false, validate: "boolean" } } };
    });

    // Milkdown 7.22.1 refuses an inline image without a title (mdast's title is null, the schema
    // wants a string) and drops the image from the document: "Text ![a](b.png) more" lost it.
    // A blob: URL (only valid in this tab) is never written.
    ctx.update(imageSchema.key, (prev) => (schemaCtx) => {
      const base = prev(schemaCtx);
      return {
        ...base,
        parseMarkdown: {
          match: ({ type }) => type === "image",
          runner: (state, node, type) => {
            state.addNode(type, {
              src: String(node.url ?? ""),
              alt: String(node.alt ?? ""),
              title: String(node.title ?? ""),
            });
          },
        },
        toMarkdown: {
          match: base.toMarkdown.match,
          runner: (state, node) => {
            if (!isEphemeral(node.attrs.src)) base.toMarkdown.runner(state, node);
          },
        },
      };
    });

    // Crepe's image block stores its display height ratio in the Markdown alt text
    // (![1.00](url "caption")), which would erase every image's description. Flock keeps Markdown's
    // meaning instead: the alt text is the block's "caption" (the description field under the
    // image, which Crepe already uses as the editor's alt), the title is kept as it was, and the
    // ratio is not stored (its resize handle is hidden in editor.css). See NORMALISATION.md.
    ctx.update(imageBlockSchema.key, (prev) => (schemaCtx) => {
      const base = prev(schemaCtx);
      return {
        ...base,
        attrs: { ...base.attrs, title: { default: "", validate: "string" } },
        parseMarkdown: {
          match: ({ type }) => type === "image-block",
          runner: (state, node, type) => {
            state.addNode(type, {
              src: String(node.url ?? ""),
              caption: String(node.alt ?? ""),
              title: String(node.title ?? ""),
              ratio: 1,
            });
          },
        },
        toMarkdown: {
          match: (node) => node.type.name === "image-block",
          runner: (state, node) => {
            state.openNode("paragraph");
            // An image that only exists in this tab leaves an empty paragraph, which is not written.
            if (!isEphemeral(node.attrs.src)) {
              state.addNode("image", undefined, undefined, {
                url: node.attrs.src as string,
                alt: node.attrs.caption as string,
                title: (node.attrs.title as string) || null,
              });
            }
            state.closeNode();
          },
        },
      };
    });
  });

  // Milkdown reads a raw "<br>" as an empty line and deletes it ("one<br>two" became "onetwo"),
  // and writes empty lines as "<br />". Without this plugin raw HTML is kept as it is written.
  await crepe.editor.remove(remarkPreserveEmptyLinePlugin);
  crepe.editor.use(accessibility);
  // List items: Crepe's look without its caret restore (list-item-view.ts), instead of its listItem feature.
  crepe.editor.use(listItemView);
  crepe.editor.use(linkShortcut);

  return crepe;
}
