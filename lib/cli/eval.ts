/**
 * `review-gate eval`: run a suite of planted defects and clean changes through the review a push
 * gets, with one provider or several side by side, and score what the gate catches and what it
 * blocks for nothing (docs/eval.md). This file defines the command (flags, help); its work,
 * lib/cli/eval_action.ts, loads when it runs.
 *
 * @module
 */
import { PROVIDER_NAMES } from "../providers/registry.ts";
import { EVAL_FORMATS } from "../eval/format_names.ts";
import { type CliContext, type CommandRoutes, defineCommand, text } from "./command.ts";
import { POLICY_FLAGS } from "./policy_flags.ts";
import type { EvalFlags } from "./eval_action.ts";

const BRIEF =
  "Measure the gate: review a suite of planted bugs and clean changes, score recall and false blocks";

/** What `eval --help` prints after the options. */
const EVAL_HELP = `
Each case of the suite (default: the 44 cases shipped in eval-suite/) becomes a throwaway
repository, and its change is reviewed exactly as "review --range" reviews one: the same prompt,
decoder, coverage, policy and council, no cached verdict. The findings are scored against the
case's oracle: recall at line and file level, defects blocked, clean changes blocked for nothing,
findings per case, hallucinated findings (on lines the change did not touch), invalid answers, runs
that could not run, tokens, cost and time — per provider, and with --repeat K their spread.

--providers a,b,… reviews every case with each, side by side: an entry is a provider (claude), a
provider and its model (codex:gpt-5) or a council (claude+codex). --cases takes globs of case names,
comma-separated ("go/*", "off-by-one"). A suite of your own is a folder of cases in the same format
(docs/eval.md; "review-gate schema eval-case"). --budget USD starts no run once the cost the
providers reported reaches it (Codex and Vibe report none). Formats: terminal (default), json (the
record: "review-gate schema eval-report"), markdown, html (one self-contained page); repeat
--format for several, each with its own --output FILE.

Exit codes: 0 the eval ran (whatever the scores), 2 usage error or an invalid suite (found before
any model call), 3 no run got an answer, 130 interrupted.`;

/** `eval`'s flags, by internal name, in help order. */
export const EVAL_FLAGS = {
  provider: {
    kind: "enum",
    values: PROVIDER_NAMES,
    optional: true,
    placeholder: "name",
    brief: "provider CLI to evaluate",
  },
  providers: text("a,b", "evaluate these side by side: name, name:model or a council a+b"),
  model: text("model", "model name passed to the provider"),
  suite: text("dir", "the suite's folder (default: the shipped suite)"),
  cases: text("globs", "only the cases whose name matches one of these globs (comma-separated)"),
  jobs: text("n", "cases reviewed at once (default 1)"),
  repeat: text("k", "review each case k times, for the spread between runs (default 1)"),
  format: {
    kind: "enum",
    values: EVAL_FORMATS,
    variadic: true,
    optional: true,
    placeholder: "name",
    brief: "output format; repeat for several",
  },
  output: {
    kind: "parsed",
    parse: String,
    variadic: true,
    optional: true,
    placeholder: "file",
    brief: "write the --format just before it to this file, not stdout",
  },
  budget: text("usd", "start no run once the reported cost reaches this many USD"),
  ...POLICY_FLAGS,
  timeout: text("seconds", "limit for each provider call, in seconds"),
} as const;

/** `eval`. */
export const evalRoutes: CommandRoutes = {
  eval: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + EVAL_HELP },
    parameters: { flags: EVAL_FLAGS, aliases: { p: "provider", m: "model" } },
    async func(this: CliContext, flags: EvalFlags) {
      const { evalAction } = await import("./eval_action.ts");
      this.setExit(await evalAction(flags, { deps: this.deps, args: this.args }));
    },
  }),
};
