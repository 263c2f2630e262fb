/**
 * What a provider is: its facts as plain data ({@linkcode ProviderMeta}, the folder's `meta.ts`,
 * read without loading any adapter) and its adapter, one per coding-agent CLI
 * (`lib/providers/<name>/adapter.ts`). Adapters are pure — they build an {@linkcode Invocation}
 * and parse an {@linkcode Envelope} — and declare their capabilities as data. The runner in
 * `lib/session/call.ts` does the I/O. Facts about each CLI come from docs/providers.md, the README
 * ("Tested with") and the real envelopes in fixtures/provider-samples/. `lib/providers/registry.ts`
 * holds one line per provider and derives every list of them.
 *
 * @module
 */

import type { SchemaDialect } from "../answer/types.ts";

/**
 * A provider's facts as data (its folder's `meta.ts`): what a review, a cache key, the command
 * line, the config schema and `doctor` know of it before its adapter loads. The adapter spreads
 * it, so the two cannot disagree.
 */
export interface ProviderMeta<N extends string = string> {
  /** The provider's name: `--provider`, the config's `provider`, the verdict's key. */
  readonly name: N;
  /** Default binary name looked up on PATH. */
  readonly defaultBin: string;
  /** Environment variable that overrides the binary path: `REVIEW_GATE_<NAME>_BIN`. */
  readonly binEnv: string;
  /** How to install the CLI, for the "cannot find" message and `doctor`. */
  readonly installHint: string;
  /**
   * The shape of the answer schema this CLI receives, derived from the canonical schema
   * (lib/answer/dialect.ts; `review-gate schema --dialect <name>` prints it).
   */
  readonly dialect: SchemaDialect;
  /**
   * Largest prompt the CLI takes, bytes, when it is limited (vibe takes the prompt as one argv
   * element, which Linux caps at 128 KiB); `null` for none. The diff budget shrinks to fit.
   */
  readonly maxPromptBytes: number | null;
  /**
   * The environment variables that pick this CLI's model, endpoint or account (names and name
   * prefixes, matched case-insensitively): a gate compares their digests so the agent under
   * review cannot choose its reviewer (lib/providers/reviewer_env.ts).
   */
  readonly reviewerVars: {
    readonly names?: readonly string[];
    readonly prefixes: readonly string[];
  };
  /**
   * Files and folders of a working tree this CLI reads as its instructions, settings or
   * environment whatever its flags say: the private copy every review runs in leaves them out, at
   * any depth, names compared case-insensitively (lib/git/tree_copy.ts; README "Security model").
   */
  readonly projectFiles: { readonly files: readonly string[]; readonly dirs: readonly string[] };
}

/** Token usage reported by the provider, when it reports any. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** What one provider call needs. */
export interface ProviderRequest {
  /** The whole prompt text (for a resume: the corrective prompt). */
  prompt: string;
  /** The canonical JSON Schema of the answer kind (adapters derive their dialect from it). */
  schema: Record<string, unknown>;
  /**
   * Absolute root of the user's repository. The provider does not run there (see `workdir`); the
   * adapter names it to keep it out of the sandbox's reach.
   */
  root: string;
  /**
   * The directory the provider runs in: the private read-only copy of the reviewed tree
   * (lib/session/workspace.ts). Defaults to `root` (unit tests of the pure builders).
   */
  workdir?: string;
  /** The child's environment and options from {@linkcode ProviderAdapter.prepareChild}. */
  child?: ChildSetup;
  /** Model name to pass on, when the user chose one. */
  model?: string;
  /** Agent turn limit. */
  maxTurns: number;
  /** Private 0700 directory for files the invocation needs (schema, last message). */
  tmpDir: string;
  /** Set for the corrective resume: the session to continue. */
  resumeSessionId?: string;
  /** Attempt number, 1 or 2; used to name temp files. */
  attempt: number;
}

/** A fully built process invocation; the session runner writes `files`, spawns, then reads `readBack`. */
export interface Invocation {
  /** Arguments after the binary name. */
  args: string[];
  /** Text for stdin, or `null` for no stdin at all (vibe reads stdin even with -p). */
  stdin: string | null;
  /**
   * The child's environment (`runProcess` in lib/exec/exec.ts adds `REVIEW_GATE_CHILD=1`). With
   * `clearEnv` it is the whole environment; without, it is merged over the parent's.
   */
  env: Record<string, string>;
  /** True when `env` is the child's whole environment (set whenever a `child` setup was given). */
  clearEnv?: boolean;
  /** The directory to spawn in (the request's `workdir`). */
  cwd?: string;
  /** Files to write before spawning: absolute path (inside tmpDir) → content. */
  files: Record<string, string>;
  /** Absolute paths to read after the process exits (missing → null), passed to parseEnvelope. */
  readBack: string[];
}

/** What a provider child may see of the machine, for {@linkcode ProviderAdapter.prepareChild}. */
export interface ChildContext {
  /** The parent environment: where allowlisted variables come from. Never given whole to the child. */
  env: Record<string, string | undefined>;
  /** The call's private 0700 directory (private HOME, CODEX_HOME, settings files go here). */
  dir: string;
  /** Absolute root of the user's repository (kept out of the sandbox's reach). */
  root: string;
  /** The directory the child runs in (the read-only copy). */
  workdir: string;
  /**
   * The program the runner starts (a name looked up on the parent's PATH, or a path): codex makes
   * its own program's folder readable to the sandbox (lib/providers/codex/readable.ts).
   */
  bin?: string;
  /**
   * The review's turn limit (the request's `maxTurns`), for a CLI whose cap is a setting rather
   * than a flag (gemini's `model.maxSessionTurns`, lib/providers/gemini/child.ts).
   */
  maxTurns?: number;
}

/** The child's environment and the options derived from the user's setup, built once per call. */
export interface ChildSetup {
  /** The child's whole environment: an allowlist of the parent's plus private HOME/TMPDIR/… */
  env: Record<string, string>;
  /** Options the adapter places in every attempt's argv (codex `-c …`, claude `--settings FILE`). */
  args: string[];
  /** Undo what the CLI left behind for this call outside `dir` (Claude's per-cwd session folder). */
  cleanup?: () => Promise<void>;
}

/** What the process produced, as the adapter's parser sees it. */
export interface ProcessOutput {
  code: number;
  stdout: string;
  stderr: string;
  /** Contents of the invocation's `readBack` files (null when missing). */
  files: Record<string, string | null>;
}

/**
 * Metadata every envelope may carry. `usage` and `costUsd` are the **session's running totals** as
 * of this attempt, which is what the CLIs report on a resume (Claude's `total_cost_usd` and
 * `modelUsage`, Codex's `turn.completed.usage` (fixtures/provider-samples/), checked by the contract
 * tests): a corrective resume reports the first attempt's tokens and cost again, plus its own.
 */
export interface EnvelopeMeta {
  sessionId?: string;
  /** Tokens used by the session so far (this attempt's own with `capabilities.attemptUsage`). */
  usage?: Usage;
  /**
   * USD spent by the session so far, when the provider reports money (Claude; OpenCode reports
   * each attempt's own, `capabilities.attemptUsage`).
   */
  costUsd?: number;
  /** Model the provider reports having used. */
  model?: string;
  /** Agent turns used. */
  turns?: number;
  /**
   * Non-fatal trouble the provider reported on the way to its answer (codex's "Reconnecting...
   * 1/5" `error` events before a completed turn); kept in the attempt's record.
   */
  notices?: string[];
}

/**
 * The adapter's classification of one attempt (docs/providers.md "What every adapter must do").
 * - `answer`: the provider finished and gave a candidate answer — the decoder judges it. `value` is
 *   an already-parsed object (Claude's `structured_output`); `text` is raw text (Codex, Vibe).
 * - `refused`: the provider finished but gave no usable answer in a way that a corrective resume can
 *   fix (Claude ended in prose without `structured_output`). Carries the prose and why.
 * - `error`: a provider error — never resumed (auth, rate limit, argv, schema rejected, retries
 *   exhausted, `turn.failed`, non-zero exit).
 */
export type Envelope =
  & EnvelopeMeta
  & (
    | { outcome: "answer"; text: string; value?: undefined }
    | { outcome: "answer"; value: unknown; text?: string }
    | { outcome: "refused"; text: string; problem: string }
    | { outcome: "error"; message: string }
  );

/** Capabilities as data. */
export interface ProviderCapabilities {
  /** The CLI enforces a JSON schema itself (claude --json-schema, codex --output-schema). */
  nativeSchema: boolean;
  /** The same session can be resumed for the corrective attempt. */
  resume: boolean;
  /**
   * Set when the CLI reports each attempt's own tokens (and cost) rather than the session's running
   * totals (Gemini CLI: a resume's `stats` count that process's requests only; OpenCode: a resume's
   * `step_finish` events are its own steps): the call adds them up.
   */
  attemptUsage?: boolean;
}

/**
 * What an adapter counts for a CLI with no turn cap of its own (codex): the session stops the child
 * once more than the review's `max_turns` of them started (lib/session/tool_bound.ts).
 */
export interface ToolCallBound {
  /** What is counted, plural, for the failure message (e.g. "shell commands"). */
  what: string;
  /** True when one line of the child's stdout starts one counted tool call. Never throws. */
  starts(line: string): boolean;
}

/** One provider adapter: its {@linkcode ProviderMeta} (its folder's `meta.ts`) and its code. */
export interface ProviderAdapter extends ProviderMeta {
  readonly capabilities: ProviderCapabilities;
  /** Arguments that print the CLI's version (for doctor). */
  readonly versionArgs: string[];
  /**
   * Build the invocation for a first call or, when `request.resumeSessionId` is set, the corrective
   * resume of that session.
   */
  buildInvocation(request: ProviderRequest): Invocation;
  /**
   * Build the call's private setup in `context.dir` (I/O: reads the user's config, writes private
   * files): the child's allowlisted environment and the options that carry the user's provider and
   * auth. Called once per structured call; both attempts use it.
   */
  prepareChild(context: ChildContext): Promise<ChildSetup>;
  /**
   * Say, without any secret, what provider and auth the review child will use (for `doctor`). Reads
   * the user's config; writes nothing.
   */
  describeAuth(env: Record<string, string | undefined>): Promise<string[]>;
  /**
   * Set for a CLI that caps nothing itself (codex): its stdout is watched and the child stopped past
   * `max_turns` tool calls. A CLI with its own cap (claude, vibe `--max-turns`) leaves it unset.
   */
  readonly toolBound?: ToolCallBound;
  /** Classify what the process produced. Never throws: malformed output is an `error` envelope. */
  parseEnvelope(output: ProcessOutput): Envelope;
  /**
   * Find the session id after the process ran, for CLIs that print it nowhere (vibe). I/O allowed.
   * @param context the directory the child ran in, the spawn time (epoch ms) and the child's
   *   environment
   */
  locateSession?(
    context: { root: string; spawnedAtMs: number; env: Record<string, string | undefined> },
  ): Promise<string | undefined>;
}

/**
 * Thrown by a provider's `describeAuth` when it finds no credentials at all (no variable, no
 * helper, no login on disk): `doctor` shows it as a warning, since a login it cannot see (a
 * keychain) may still exist.
 */
export class NoCredentialsError extends Error {
  override name = "NoCredentialsError";
  /**
   * True when a login may exist where review-gate does not look (Claude Code's macOS keychain):
   * `provider: "auto"` still tries the provider (lib/providers/auto.ts); false when none can.
   */
  readonly unknown: boolean;
  constructor(message: string, options?: { unknown?: boolean }) {
    super(message);
    this.unknown = options?.unknown ?? false;
  }
}

/**
 * What a provider's review child carries from the user's own config of that CLI (Claude Code's
 * settings `env` and credential helpers, Codex's `config.toml` keys), read without loading the
 * adapter: the turn gate and the verdict cache key by it, so a change of it is a change of
 * reviewer.
 */
export interface CarriedConfig {
  /**
   * Everything carried, the reason a file could not be used included, as JSON data: the turn gate
   * digests it (lib/gates/turn/reviewer_identity.ts).
   */
  identity(env: Record<string, string | undefined>): Promise<unknown>;
  /**
   * What of it picks the model or where requests go, secrets left out, as JSON text; `null` when
   * nothing is carried (a verdict's cache key, lib/providers/reviewer_env.ts).
   */
  answerKey(env: Record<string, string | undefined>): Promise<string | null>;
}
