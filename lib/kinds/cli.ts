/**
 * The command-line options of the answer kinds that take an input (lib/kinds/definition.ts
 * `KindCli`), one line per kind, without the kinds' definitions: `review` and `decode` define their
 * flags from this at start. Each kind's definition carries the same object as its `cli` (the
 * registry test checks that the two agree).
 *
 * @module
 */
import type { KindCli } from "./definition.ts";
import type { KindName } from "./names.ts";
import { complianceCli } from "./compliance/cli.ts";

/** The kinds chosen and fed from the command line, by name. */
export const KIND_CLIS: { readonly [K in KindName]?: KindCli } = {
  compliance: complianceCli,
};
