import { loadMessages } from "../i18n/load.ts";
import type { Area } from "../i18n/catalogs.ts";

/**
 * A chunk's loader that also fetches the message catalogs its screens read, in the reader's language,
 * in parallel: the screens render once both are here, so no message shows blank or late, and a
 * visitor downloads only their page's messages (QUALITY.md F1). scripts/web-messages.test.ts checks
 * that `areas` covers every key the chunk's code reads.
 */
export function withMessages<M>(areas: readonly Area[], load: () => Promise<M>): () => Promise<M> {
  return () => Promise.all([load(), loadMessages(areas)]).then(([module]) => module);
}
