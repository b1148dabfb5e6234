/**
 * The text of a PDF, page by page, as a reader's "copy text" gets it (pdfjs-dist): what tests and the
 * statements benchmark check a statement's figures against. Each page's text items joined by spaces.
 */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  // The legacy build runs on Node without a DOM.
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(
      content.items
        .map((item) => ("str" in item ? item.str : ""))
        .filter((text) => text.trim())
        .join(" "),
    );
  }
  await pdf.destroy();
  return pages;
}
