/**
 * How the compliance kind is asked for on the command line (lib/kinds/definition.ts `KindCli`):
 * `--plan <file>` and `--fail-on-missing`. Loaded without the rest of the kind, so the command
 * line can define its flags at start; the plan is read (lib/kinds/compliance/load.ts) when given.
 *
 * @module
 */
import type { KindCli } from "../definition.ts";

/** The switch that makes missing and contradicted items block. */
export const FAIL_ON_MISSING = "fail-on-missing";

/** `--plan <file>` and its switch. */
export const complianceCli: KindCli = {
  inputOption: {
    flag: "--plan",
    placeholder: "file",
    description: "check the change against a plan (markdown checklist, numbered steps, phases)",
  },
  loadInput: async (value, cwd) => (await import("./load.ts")).loadPlan(value, cwd),
  switches: [{
    flag: "--fail-on-missing",
    name: FAIL_ON_MISSING,
    description: "with --plan: missing or contradicted plan items block (exit 1)",
  }],
};
