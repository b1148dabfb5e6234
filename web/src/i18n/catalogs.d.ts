// The staff screens' English messages, split off by the build (web/vite-icu.ts).
declare module "*/en.ts?staff" {
  import type { CompiledMessage } from "@flock/shared/i18n/format";
  export const enStaff: Partial<Record<string, CompiledMessage>>;
}
