/**
 * What an answer kind is (docs/design.md "Review kinds"): everything the review pipeline, the
 * command
 * line and the output formats need to ask for, judge, gate on and show one kind of answer, so that
 * adding a kind is one folder under lib/kinds/ (its `definition.ts`, decoder kind, prompt, types
 * and renderers), its schema in `schemas/`, and one line in lib/kinds/registry.ts — no change to
 * the decoder, the pipeline, the CLI or the format registry. A kind may take an input from the
 * command line (compliance: `--plan PLAN.md`); the decoder kind is then built for that input
 * ({@linkcode KindDefinition.decoder}), since the decoder core only ever sees a
 * {@linkcode DecoderKind}.
 *
 * Renderers of a kind are pure and colour-free: they mark text with a {@linkcode Tone} and the
 * format (lib/formats/) decides what each tone looks like. The review kind's renderers are the
 * formats' own (lib/formats/terminal.ts, markdown.ts), so it declares none.
 *
 * @module
 */
import type { DecoderKind, JsonSchema, TreeView } from "../answer/types.ts";
import type { Change, Coverage } from "../git/types.ts";
import type { Policy, PolicyConfig } from "./review/policy.ts";
import type { AcknowledgedFinding, ReviewKind } from "./review/prompt.ts";
import type { ReviewGuidelines } from "./review/rules_text.ts";
import type { Agreement, CouncilPolicy, FindingNote } from "./review/types.ts";

/**
 * The blocking policy a config sets (`fail_on`, `min_confidence`, `categories`…), as every kind's
 * {@linkcode KindDefinition.blocking} and the formats take it.
 */
export type { Policy, PolicyConfig };

/** A prompt variant: `review`, or `adversarial-review` (`--adversarial`). */
export type PromptVariant = ReviewKind;

/** What shapes a prompt besides the change and the kind's input. */
export interface KindPromptOptions {
  /** The prompt variant of `review` (`--adversarial`); kinds without variants ignore it. */
  variant: PromptVariant;
  /** `--focus` text. */
  focus?: string;
  /** What the coding agent said about its change (Stop gate), carried in as data. */
  agentMessage?: string;
  /** Findings the team acknowledged on the change's files (kinds with findings tell the model). */
  acks?: readonly AcknowledgedFinding[];
  /** The team's guidelines for the change's files (lib/rules/), sent as review policy. */
  guidelines?: ReviewGuidelines;
  /** In a review in parts ({@linkcode KindParts}): the chunk (0-based) this prompt holds. */
  part?: { index: number };
}

/** How a kind's prompts are built (pure, synchronous once loaded: {@linkcode KindDefinition.prompts}). */
export interface KindPrompts {
  /** The first attempt's prompt. */
  prompt(change: Change, options: KindPromptOptions, input: unknown): string;
  /** The corrective resume's prompt, from the formatted refusal lines. */
  corrective(refusalText: string): string;
}

/** What decides whether an answer blocks. */
export interface BlockingContext {
  /** The config's policy (`fail_on`, `min_confidence`). */
  policy: Policy;
  /** The kind's command-line switches that were given, by name. */
  switches: ReadonlySet<string>;
  /** Notes on a findings answer's findings (fingerprints, acknowledgements), index for index. */
  notes?: readonly FindingNote[];
}

/** The statuses a decoded answer gives a run (lib/store/run_record.ts ReviewStatus). */
export type AnswerStatus = "approved" | "needs-attention";

/** What a kind's renderers read of a run record (lib/store/run_record.ts RunRecord has it all). */
export interface KindRunView {
  id: string;
  status: string;
  /** True when the run blocks under the policy it ran with. */
  blocking: boolean;
  target: { label: string };
  provider: string;
  model?: string;
  sessionId?: string;
  durationMs: number;
  cached: boolean;
  /** Absolute run folder ("" when none). */
  runDir: string;
  coverage?: Coverage;
  /** The kind's input as the run recorded it ({@linkcode KindDefinition.recordInput}). */
  kindInput?: unknown;
}

/** Meaning of a piece of terminal text; the terminal format maps tones to colours. */
export type Tone = "good" | "warn" | "bad" | "muted" | "strong" | "accent";

/** How a kind's terminal renderer marks and cleans text. */
export interface KindTerminalContext {
  /** Mark `text` with a tone (plain text when colour is off). */
  tone(tone: Tone, text: string): string;
  /** Neutralise escape sequences and bidi controls in untrusted text (model output, paths). */
  clean(text: string): string;
}

/** What a kind's terminal renderer gives; the terminal format adds change, coverage and run folder. */
export interface KindTerminalParts {
  /** The first line, e.g. "review-gate: plan compliance incomplete — 3 of 5 items done". */
  headline: string;
  /** Lines after the change and the coverage warning. */
  body: string[];
}

/** What a kind's markdown renderer gives; the markdown format adds the run's facts on top. */
export interface KindMarkdownParts {
  /** The level-1 heading's text, e.g. "Plan compliance: incomplete". */
  title: string;
  /** Extra fact lines for the list under the title, e.g. "- Plan: `PLAN.md` (5 items)". */
  facts: string[];
  /** The rest of the document. */
  body: string;
}

/** A kind's own renderers of a run with an answer (pure, colour-free). */
export interface KindRenderers {
  terminal(view: KindRunView, answer: unknown, context: KindTerminalContext): KindTerminalParts;
  /** The markdown file stored beside the answer ({@linkcode KindDefinition.files}). */
  markdown(view: KindRunView, answer: unknown): KindMarkdownParts;
  /** Fields the `--json` envelope adds for this kind (e.g. counts of blocking items). */
  json(view: KindRunView, answer: unknown): Record<string, unknown>;
}

/** Counts a run record keeps: by finding severity (review) or by plan item status (compliance). */
export interface RecordCounts {
  findingCounts?: Record<string, number>;
  itemCounts?: Record<string, number>;
}

/**
 * What a kind whose answers carry review findings (`findings[]` of `schemas/review.schema.json`)
 * adds: the findings get fingerprints, acknowledgements match them (lib/acks), and the model is
 * told the acknowledged ones and the team's guidelines.
 */
export interface KindFindings {
  /**
   * One fingerprint per finding of a decoded answer, in answer order, from the reviewed tree
   * (lib/kinds/review/fingerprint.ts).
   *
   * @throws what reading the tree throws (a git failure)
   */
  fingerprints(answer: unknown, tree: Pick<TreeView, "text">): Promise<string[]>;
}

/** One answer of a review in parts: a part's (1-based chunk number), from one provider. */
export interface PartAnswer {
  answer: unknown;
  part: number;
  provider: string;
}

/**
 * Who reported one finding of a merged answer: its parts (ascending) and providers. The kind's own
 * sources carry more (each provider's version of the finding), which it reads back when it settles
 * the merged answer.
 */
export interface MergedSource {
  parts: number[];
  providers: string[];
}

/** A council's providers and, per part (1-based), the providers that answered it. */
export interface CouncilAnswers {
  providers: readonly string[];
  answeredBy: ReadonlyMap<number, readonly string[]>;
}

/**
 * How a kind is reviewed in several calls whose answers are merged (lib/review/parts.ts): a change
 * larger than one prompt in parts, and a council (several providers, each asked every part).
 */
export interface KindParts {
  /**
   * Merge the answers of the parts (and providers) into one answer of the kind.
   *
   * @param answers in part order, then provider order
   * @param labels how many parts there are and how a merged summary names its sources
   * @returns the merged answer and, per merged finding (answer order), who reported it
   */
  merge(
    answers: readonly PartAnswer[],
    labels: { count: number; by: "part" | "provider" | "both" },
  ): Promise<{ answer: unknown; sources: MergedSource[] }>;
  /**
   * Judge a merged answer per report: each finding is shown as a report of it that blocks under
   * the policy, when any does; in a council, which providers agreed on each finding and whether
   * enough did (`council_policy`) — lib/kinds/review/council.ts.
   *
   * @param answer the merged answer ({@linkcode merge}'s, or the cached one)
   * @param at the sources {@linkcode merge} gave, the policy, and a council's answers and policy
   * @returns the answer to judge and store, and a council's agreements (one per finding)
   */
  settle(
    answer: unknown,
    at: {
      sources: readonly MergedSource[];
      policy: Policy;
      council?: CouncilAnswers & { policy: CouncilPolicy };
    },
  ): Promise<{ answer: unknown; agreements?: Agreement[] }>;
}

/** A command-line switch of a kind that changes its blocking policy, e.g. `--fail-on-missing`. */
export interface KindSwitch {
  /** The flag, e.g. `"--fail-on-missing"`. */
  flag: string;
  /** The switch's name in {@linkcode KindDefinition.blocking}'s `switches`, e.g. `"fail-on-missing"`. */
  name: string;
  description: string;
}

/** How a kind is asked for on the command line (`review`, `decode`). */
export interface KindCli {
  /**
   * The option that selects the kind and names its input: its flag and the placeholder of its value,
   * e.g. `--plan` and `file` (`--plan <file>`).
   */
  inputOption: { flag: string; placeholder: string; description: string };
  /**
   * Read the input the option names.
   *
   * @param value the option's value (a path, relative to `cwd`)
   * @param cwd the directory review-gate runs in
   * @throws {import("../base/errors.ts").UsageError} unreadable or unusable input (exit 2)
   */
  loadInput(value: string, cwd: string): Promise<unknown>;
  /** Switches that only apply to this kind. */
  switches: readonly KindSwitch[];
}

/**
 * One answer kind. Methods take the kind's answer and input as `unknown`: the pipeline is generic,
 * and each kind knows its own shapes (the decoder has already checked them against the schema).
 */
export interface KindDefinition {
  /** `schemas/<name>.schema.json`; also the value of `answerKind` in run records. */
  readonly name: string;
  /** The canonical Draft 2020-12 schema, deep-frozen by the registry. */
  readonly schema: JsonSchema;
  /** Names of the two files a successful run stores, written together (answer is the commit marker). */
  readonly files: { readonly answer: string; readonly markdown: string };
  /** Present when the kind is chosen and fed from the command line. */
  readonly cli?: KindCli;
  /** Own renderers; absent for the review kind, whose renderers are the formats themselves. */
  readonly render?: KindRenderers;
  /**
   * Present when its answers carry review findings ({@linkcode KindFindings}): fingerprints,
   * acknowledgements, the team's guidelines.
   */
  readonly findings?: KindFindings;
  /**
   * Present when a change larger than one prompt may be reviewed in several calls whose answers are
   * merged ({@linkcode KindParts}), and by a council. Without it the kind is asked once, by one
   * provider, with the review plan cut to one prompt (`max_calls` 1): what does not fit is named
   * as not reviewed.
   */
  readonly parts?: KindParts;
  /**
   * The decoder kind (schema + coherence) for one review.
   *
   * @param input the kind's input (`undefined` for review)
   * @param change the change under review; absent outside a review (`decode`), where coherence
   *   checks against the tree alone
   */
  decoder(input: unknown, change?: Change): DecoderKind<unknown>;
  /**
   * The kind's prompt builders, their code loaded: a stage that asks a model loads them, a cached
   * verdict never does (docs/design.md "Performance notes").
   */
  prompts(): Promise<KindPrompts>;
  /** The prompt template text (its hash is part of the verdict's identity). */
  templateText(variant: PromptVariant): string;
  /** Text identifying the input for the verdict cache (hashed), or `undefined` without input. */
  inputIdentity(input: unknown): string | undefined;
  /** What of the input the run record keeps (renderers read it back as `kindInput`). */
  recordInput(input: unknown): unknown;
  /** The blocking policy a config sets, passed back to {@linkcode blocking} and the formats. */
  policy(config: PolicyConfig): Policy;
  /** The status a decoded answer gives the run. */
  status(answer: unknown): AnswerStatus;
  /** Whether the answer blocks (exit 1, a gate stops). */
  blocking(answer: unknown, context: BlockingContext): boolean;
  /**
   * How many of the answer's findings (or plan items) block — more than 0 exactly when
   * {@linkcode blocking} is true; a gate in warn mode records it as what would have blocked.
   */
  blockingCount(answer: unknown, context: BlockingContext): number;
  /** Counts the run record and the records log keep (`findingCounts` or `itemCounts`). */
  recordCounts(answer: unknown): RecordCounts;
}
