/**
 * The git pre-push gate (`review-gate hook pre-push <remote> <url>`, docs/design.md "Pre-push
 * gate"): reads the
 * ref updates from stdin once, derives each update's range from the line and the remote in `$1`,
 * reviews the pushed commits' tree (never the worktree) by the rules the remote already has
 * (lib/gates/pre_push/rules.ts: its `.review-gate.json`, `.gitattributes`, `REVIEW.md` and
 * acknowledgements; the user's config; the worktree's config only where stricter; what was not
 * applied is said once), and blocks the push (exit 1) on blocking
 * findings — or, with `gates.pre_push.mode: "warn"` from those rules, says what it would block and
 * lets the push go ahead (README "Warn first"; a pushed commit or the worktree cannot set it). Deletions and, by default, tags are skipped; a re-push of the same commits hits the
 * verdict cache (no model call). A review that could not run follows `on_error` (default: allow
 * with a loud "NOT reviewed" warning); one that saw only part of the change, or none of it,
 * follows `on_partial` (default: allow with a loud note naming what was not reviewed). At most {@linkcode MAX_REVIEWED_REFS} ref updates are
 * reviewed per push; the others are reported as NOT reviewed and follow `on_error` too. All human
 * output goes to stderr.
 *
 * @module
 */
import { openTurns } from "./open_turns.ts";
import { type PushReviewerEnv, pushReviewerEnv, unknownStartNote } from "./reviewer_env.ts";
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import type { ReviewAnswer } from "../../kinds/review/types.ts";
import { type Config, envConfigKey, loadConfig, REPO_CONFIG_FILE } from "../../config/config.ts";
import { ConfigError } from "../../base/errors.ts";
import { stricterConfig } from "../../rules/untrusted.ts";
import { type PushRules, pushRulesAt } from "./rules.ts";
import {
  heldUserConfigNote,
  loadWithUserConfig,
  type PushUserConfig,
  pushUserConfig,
} from "./user_config.ts";
import { type Repo, resolveRepo } from "../../git/repo.ts";
import {
  blockingFindings,
  notesByFinding,
  policyOf,
  sortFindings,
} from "../../kinds/review/policy.ts";
import type { FindingNote } from "../../kinds/review/types.ts";
import type { HookInput, HookOutput } from "../hook_io.ts";
import { type GateFinding, plural, withFingerprints } from "../messages.ts";
import type { CacheContext } from "./cached.ts";
import { renderNotReviewed, renderRulesNotApplied, renderVerdict, reviewerOf } from "./messages.ts";
import { type PushRange, type PushRangeResult, resolvePushRange } from "./range.ts";
import { parsePushLines, type PushUpdate } from "./stdin.ts";
import {
  type Advertised,
  type DefaultBranch,
  rememberedDefaultBranch,
  rememberedRemote,
} from "./remote_refs.ts";
import { recordDisabledPush } from "./disabled_skip.ts";

/** Most ref updates reviewed (cached or by the model) in one push; the rest are NOT reviewed. */
export const MAX_REVIEWED_REFS = 20;

/** Arguments git passes to the hook: `$1` remote name (or URL), `$2` URL. */
export interface PrePushArgs {
  remote: string;
  url: string;
}

/** One push being gated: what every ref update shares, and the output so far. */
interface Push {
  input: HookInput;
  args: PrePushArgs;
  repo: Repo;
  /** How the user config is read (held back while an agent turn that changed it is open). */
  user: PushUserConfig;
  /**
   * The push-wide config: the user's and the environment's, with the worktree's stricter values
   * (range bounds, tags, what a NOT reviewed ref does).
   */
  config: Config;
  /** The rules of each range base (lib/gates/pre_push/rules.ts), read once per base. */
  rulesByBase: Map<string, Promise<PushRules>>;
  /**
   * The cache context of each range base, built on the first update reviewed from it: a push of
   * deletions or skipped tags alone neither hashes nor creates the state dir.
   */
  cacheContexts: Map<string, Promise<CacheContext>>;
  /** The rule changes not applied to this push that were said (each once per push). */
  saidNotApplied: Set<string>;
  stderr: string[];
  exitCode: number;
  /** Every verdict so far came from the memo and let the push through (a push stamp may replay it). */
  fromMemoOnly: boolean;
  /** What the remote advertises, asked at most once per push and only when a range needs it. */
  advertised: () => Promise<Advertised>;
  /**
   * The remote's default branch, asked at most once per push and only when a base's config loosens
   * the gate (lib/gates/pre_push/default_branch.ts).
   */
  defaultBranch: () => Promise<DefaultBranch>;
  /** The updates the remote's config let through with the gate disabled (their skip record). */
  disabledByRemote: PushUpdate[];
}

/** Where the push-wide config that disables the gate comes from, for its skip record. */
const USER_DISABLED = "gates.pre_push.enabled is false in the user config or environment";
/** Where a range's config that disables the gate comes from. */
const REMOTE_DISABLED = `gates.pre_push.enabled is false in the ${REPO_CONFIG_FILE} the remote has`;

/**
 * Run the pre-push gate. The skip switches (`REVIEW_GATE=0`, `REVIEW_GATE_CHILD=1`) are checked
 * by the caller, `runHook` in lib/gates/run_hook.ts, before stdin is read.
 *
 * @returns exit 0 (push goes ahead), 1 (blocked) or 130 (interrupted), with all text on stderr
 * @throws {import("../../base/errors.ts").ConfigError} on invalid config, and whatever git or the
 *   state dir throws: the hook (lib/gates/pre_push/hook.ts) reports it and lets the push go ahead
 *   unless the config it can still read says `gates.pre_push.on_error: "block"`
 */
export async function runPrePushGate(input: HookInput, args: PrePushArgs): Promise<HookOutput> {
  const { updates, notes } = parsePushLines(input.stdinText);
  const stderr: string[] = notes.map((n) => `review-gate: ${n}\n`);
  if (updates.length === 0) return { stdout: "", stderr: stderr.join(""), exitCode: 0 };
  const repo = await resolveRepo(input.runner, input.cwd);
  // an open agent turn holds back the reviewer it may have chosen (reviewer_env.ts) and what it
  // may have written to the user config (user_config.ts)
  const turns = await openTurns(repo, input.env, input.now());
  const reviewer = await pushReviewerEnv(turns, input.env);
  if (reviewer.heldBack.length > 0) input = { ...input, env: reviewer.env };
  const blocked = reviewerBlock(reviewer);
  if (blocked) {
    return {
      stdout: "",
      stderr: [...stderr, heldReviewerNote(reviewer), blocked].join(""),
      exitCode: 1,
    };
  }
  const user = await pushUserConfig(input.runner, {
    ...{ repo, env: input.env, now: input.now(), turns },
  });
  const { config, ignored } = heldStrict(await pushWideConfig(repo, input.env, user), reviewer);
  // the note names the value that applies instead of each setting held back
  stderr.push(heldReviewerNote(reviewer, config));
  if (user.kind === "held") stderr.push(sanitizeForTerminal(heldUserConfigNote(user, ignored)));
  if (!config.gates.pre_push.enabled) {
    for (const update of updates) {
      if (update.deletion) continue;
      stderr.push(notReviewedLine(
        update.remoteRef,
        "the pre-push gate is disabled (gates.pre_push.enabled is false in your user config or environment; review-gate gate enable pre-push --user turns it on)",
      ));
    }
    stderr.push(
      await recordDisabledPush(input, { remote: args.remote, repo, updates }, USER_DISABLED),
    );
    return { stdout: "", stderr: stderr.join(""), exitCode: 0 };
  }
  const push: Push = {
    input,
    args,
    repo,
    user,
    config,
    rulesByBase: new Map(),
    cacheContexts: new Map(),
    saidNotApplied: new Set(),
    stderr,
    exitCode: 0,
    // a held user config rests on the turn records, which the push stamp's key does not hold
    fromMemoOnly: user.kind === "file" && reviewer.heldBack.length === 0,
    advertised: rememberedRemote(input.runner, repo.root, args.url || args.remote),
    defaultBranch: rememberedDefaultBranch(input.runner, repo.root, args.url || args.remote),
    disabledByRemote: [],
  };
  let reviewed = 0;
  const overBound: string[] = [];
  for (const update of updates) {
    if (reviewed >= MAX_REVIEWED_REFS) {
      // No git call for these: a push of 200 refs stays bounded.
      if (!update.deletion && (!update.tag || config.gates.pre_push.review_tags)) {
        overBound.push(update.remoteRef);
      }
      continue;
    }
    const outcome = await gateUpdate(push, update);
    if (outcome === "interrupted") return { stdout: "", stderr: stderr.join(""), exitCode: 130 };
    if (outcome === "reviewed") reviewed++;
  }
  if (overBound.length > 0) reportOverBound(push, overBound);
  const updatesOff = push.disabledByRemote;
  if (updatesOff.length > 0) {
    stderr.push(
      await recordDisabledPush(input, { ...args, repo, updates: updatesOff }, REMOTE_DISABLED),
    );
  }
  const output = { stdout: "", stderr: stderr.join(""), exitCode: push.exitCode };
  if (overBound.length === 0 && notes.length === 0) await stampReplay(push, output);
  return output;
}

/**
 * Leave the push stamp the installed hook replays (`REVIEW_GATE_PUSH_STAMP`), when every verdict
 * came from the memo and let the push through.
 */
async function stampReplay(push: Push, output: HookOutput): Promise<void> {
  const { input, repo } = push;
  const stampPath = input.env.REVIEW_GATE_PUSH_STAMP;
  if (!stampPath || !push.fromMemoOnly) return;
  const contexts = [...push.cacheContexts.values()];
  await (await import("./push_stamp.ts")).stampPush({
    commonDir: repo.commonDir,
    format: repo.objectFormat,
    env: input.env,
    lines: input.stdinText,
    // the earliest expiry of any acknowledgement that counted bounds the stamp
    cacheContext: contexts.length === 0 ? undefined : Promise.all(contexts).then((all) => ({
      ...all[0],
      acks: all.flatMap((c) => c.acks),
    })),
    output,
    path: stampPath,
  });
}

/**
 * Gate one ref update: resolve its range, then take its verdict from the memo and cache or from a
 * fresh review, and report it.
 *
 * @returns `skipped` (deletion, tag, nothing new), `reviewed`, or `interrupted` (stop the push)
 */
async function gateUpdate(
  push: Push,
  update: PushUpdate,
): Promise<"skipped" | "reviewed" | "interrupted"> {
  const gate = push.config.gates.pre_push;
  const resolved = await resolvePushRange(push.input.runner, {
    repo: push.repo.root,
    remote: push.args.remote,
    url: push.args.url || push.args.remote,
    advertised: push.advertised,
    update,
    maxCommits: gate.max_commits,
    reviewTags: gate.review_tags,
  });
  // an answer resting on the remote's ls-remote answer is asked again on every push, never replayed
  if (resolved.kind === "skip" ? resolved.askedRemote : resolved.range.askedRemote) {
    push.fromMemoOnly = false;
  }
  if (resolved.kind === "skip") {
    reportSkip(push, update, resolved);
    return "skipped";
  }
  const { range } = resolved;
  const label = `${update.remoteRef} (${plural(range.commits, "commit")})`;
  const side = await rulesOf(push, range);
  // an answer resting on the remote's default branch is asked again on every push
  if (side.askedRemote) push.fromMemoOnly = false;
  sayOnce(push, side.said);
  if (!side.config.gates.pre_push.enabled) {
    push.stderr.push(notReviewedLine(
      update.remoteRef,
      `the pre-push gate is disabled (gates.pre_push.enabled is false in the ${REPO_CONFIG_FILE} the remote already has)`,
    ));
    push.fromMemoOnly = false;
    push.disabledByRemote.push(update);
    return "skipped";
  }
  for (const note of range.notes) push.stderr.push(`review-gate: ${note}\n`);
  sayNotApplied(push, side);
  const { cachedVerdict } = await import("./cached.ts");
  const started = push.input.now();
  const context = await cacheContextFor(push, range.base, side);
  const { memo, hit } = await cachedVerdict(context, range);
  if (hit) {
    const mode = side.config.gates.pre_push.mode;
    const verdict = renderVerdict({
      label,
      source: "memo",
      ...hit,
      findings: blockingOf(hit.answer, side.config, hit.findingNotes),
      onPartial: side.config.gates.pre_push.on_partial,
      mode,
      modeFrom: side.warnFrom,
    });
    report(push, verdict);
    if (context.state !== null) {
      const { recordMemoAnswer } = await import("./ledger.ts");
      const warning = await recordMemoAnswer(context.state, {
        label,
        hit,
        blocking: verdict.blocked,
        ...(mode === "warn" ? { mode, wouldBlock: verdict.wouldBlock } : {}),
        started,
        finished: push.input.now(),
      });
      if (warning) push.stderr.push(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
    }
    return "reviewed";
  }
  push.fromMemoOnly = false;
  return await reviewRange(push, { range, label, memo, acks: context.acks, side });
}

/** Report a ref update that gets no review: NOT reviewed (with `on_error` when unproven), or one line. */
function reportSkip(
  push: Push,
  update: PushUpdate,
  skip: Extract<PushRangeResult, { kind: "skip" }>,
): void {
  if (skip.unproven) {
    // what the remote has could not be proven: a review that could not run
    const blocked = push.config.gates.pre_push.on_error === "block";
    report(push, {
      text: renderNotReviewed({ label: update.remoteRef, reason: skip.reason, blocked }),
      blocked,
    });
    push.fromMemoOnly = false;
  } else if (skip.notReviewed) {
    push.stderr.push(notReviewedLine(update.remoteRef, skip.reason));
    push.fromMemoOnly = false; // what was not reviewed is said by review-gate each time
  } else if (skip.said) {
    // replayable: the push stamp's key holds the remote-tracking refs this answer rests on
    push.stderr.push(sanitizeForTerminal(`review-gate: ${update.remoteRef}: ${skip.reason}\n`));
  }
}

/**
 * The cache context of a rules side, built on the first update reviewed from it (a push of
 * deletions or skipped tags never loads it).
 */
async function cacheContextFor(push: Push, base: string, side: PushRules): Promise<CacheContext> {
  let context = push.cacheContexts.get(base);
  if (!context) {
    const { cacheContextOf } = await import("./cached.ts");
    context = cacheContextOf(side.config, {
      repo: push.repo,
      runner: push.input.runner,
      now: push.input.now(),
      acks: side.acks,
      rules: side.rules,
      env: push.input.env,
    });
    push.cacheContexts.set(base, context);
  }
  return await context;
}

/**
 * The push-wide config, before any range is known: the user's config (held back while an open
 * agent turn changed it: lib/gates/pre_push/user_config.ts) and the environment, with the
 * worktree's `.review-gate.json` only where it is stricter (an invalid one is ignored here; the
 * rules of each update say so).
 *
 * @returns the config, and what of the user config now was not applied (for the note)
 */
async function pushWideConfig(
  repo: Repo,
  env: Record<string, string | undefined>,
  user: PushUserConfig,
): Promise<{ config: Config; ignored: string[] }> {
  const { config: trusted, ignored } = await loadWithUserConfig(
    user,
    async (userText) => (await loadConfig({ env, userText })).config,
  );
  try {
    const worktree = (await loadWithUserConfig(
      user,
      async (userText) => (await loadConfig({ root: repo.root, env, userText })).config,
    )).config;
    return { config: stricterConfig(trusted, worktree), ignored };
  } catch (error) {
    if (error instanceof ConfigError) return { config: trusted, ignored };
    throw error;
  }
}

/** The rules of a range, read once per base. */
function rulesOf(push: Push, range: PushRange): Promise<PushRules> {
  let side = push.rulesByBase.get(range.base);
  if (!side) {
    const short = range.base.slice(0, 12);
    side = pushRulesAt(push.input.runner, {
      repo: push.repo,
      env: push.input.env,
      user: push.user,
      base: range.base,
      to: range.to,
      label: `the remote's commit ${short}`,
      defaultBranch: push.defaultBranch,
    });
    push.rulesByBase.set(range.base, side);
  }
  return side;
}

/** Say once per push which rule changes were not applied to it (never silently). */
function sayNotApplied(push: Push, side: PushRules): void {
  const fresh = side.notApplied.filter((item) => !push.saidNotApplied.has(item));
  if (fresh.length === 0) return;
  for (const item of fresh) push.saidNotApplied.add(item);
  push.stderr.push(renderRulesNotApplied({ remote: push.args.remote, items: fresh }));
}

/** Say each of `lines` (whole stderr lines) once per push. */
function sayOnce(push: Push, lines: readonly string[]): void {
  for (const line of lines) {
    if (push.saidNotApplied.has(line)) continue;
    push.saidNotApplied.add(line);
    push.stderr.push(sanitizeForTerminal(line));
  }
}

/** What {@linkcode reviewRange} reviews: the range, its label and memo key, its rules. */
interface ReviewAt {
  range: PushRange;
  label: string;
  memo: string;
  acks: CacheContext["acks"];
  side: PushRules;
}

/**
 * Review a range with the model (or the verdict cache, when the memo missed) and report the verdict.
 *
 * @returns `reviewed`, or `interrupted`
 */
async function reviewRange(
  push: Push,
  at: ReviewAt,
): Promise<"reviewed" | "interrupted"> {
  const { input, repo } = push;
  const { config } = at.side;
  const { runReview } = await import("../../review/run_review.ts");
  const outcome = await runReview(
    {
      cwd: repo.root,
      repo,
      target: { kind: "tree", from: at.range.from, to: at.range.to, label: at.label },
      kind: "review",
      config,
      rules: at.side.rules,
      rulesNotes: at.side.notes,
      useCache: true,
      onPartial: config.gates.pre_push.on_partial,
      memoKey: at.memo,
      acks: at.acks,
      gate: "pre-push",
      gateMode: config.gates.pre_push.mode,
    },
    { runner: input.runner, env: input.env, now: input.now, signal: input.signal },
  );
  const { record, answer } = outcome;
  for (const warning of outcome.storeWarnings ?? []) {
    push.stderr.push(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
  }
  if (record.status === "interrupted") {
    push.stderr.push(`review-gate: interrupted; the push is stopped\n`);
    return "interrupted";
  }
  if (!answer) {
    if (record.status === "nothing-to-review") {
      if (record.message) {
        push.stderr.push(
          sanitizeForTerminal(`review-gate: ${at.label}: nothing to review — ${record.message}\n`),
        );
      }
      return "reviewed";
    }
    // none of the change could be shown: a coverage matter (on_partial), not a failure (on_error)
    const shownNothing = record.status === "not-reviewed";
    const gate = config.gates.pre_push;
    const blocked = (shownNothing ? gate.on_partial : gate.on_error) === "block";
    report(push, {
      text: renderNotReviewed({
        label: at.label,
        reason: shownNothing
          ? record.message ?? "nothing in it could be shown to the model"
          : `${record.status}: ${record.message ?? "no details"}`,
        runPath: record.runDir || undefined,
        blocked,
        setting: shownNothing ? "on_partial" : "on_error",
      }),
      blocked,
    });
    return "reviewed";
  }
  report(
    push,
    renderVerdict({
      label: at.label,
      source: record.cached ? "cache" : "model",
      answer,
      runDir: record.runDir,
      status: record.status,
      findings: blockingOf(answer, config, record.findingNotes),
      coverage: record.coverage,
      onPartial: config.gates.pre_push.on_partial,
      findingNotes: record.findingNotes,
      excluded: record.rules?.excluded,
      mode: config.gates.pre_push.mode,
      modeFrom: at.side.warnFrom,
      reviewer: reviewerOf(record),
    }),
  );
  return "reviewed";
}

/**
 * Blocking findings of an answer under the config's policy (acknowledged ones never block), most
 * severe first, with their fingerprints.
 */
function blockingOf(
  answer: ReviewAnswer,
  config: Config,
  notes: readonly FindingNote[] | undefined,
): GateFinding[] {
  const blocking = sortFindings(blockingFindings(answer, policyOf(config), notes));
  return withFingerprints(blocking, notesByFinding(answer, notes));
}

/** One stderr line for a ref update the gate lets through without a review (never silence). */
function notReviewedLine(ref: string, reason: string): string {
  return sanitizeForTerminal(`review-gate: ${ref} was NOT reviewed: ${reason}\n`);
}

function report(push: Push, out: { text: string; blocked: boolean; wouldBlock?: number }): void {
  push.stderr.push(out.text);
  if (out.blocked) push.exitCode = 1;
  // what warn mode let through is said, and recorded, by review-gate at every push: never replayed
  if (out.wouldBlock) push.fromMemoOnly = false;
}

/** The ref updates past {@linkcode MAX_REVIEWED_REFS}: NOT reviewed, following `on_error`. */
function reportOverBound(push: Push, overBound: string[]): void {
  const blocked = push.config.gates.pre_push.on_error === "block";
  const shown = overBound.slice(0, 5).join(", ") + (overBound.length > 5 ? ", …" : "");
  report(push, {
    text: renderNotReviewed({
      label:
        `everything past the first ${MAX_REVIEWED_REFS} ref updates (${overBound.length}: ${shown})`,
      reason:
        `at most ${MAX_REVIEWED_REFS} ref updates are reviewed per push; push them separately`,
      blocked,
    }),
    blocked,
  });
}

/**
 * Why a push is blocked outright by an open agent turn: what the reviewer would carry changed
 * mid-turn and its old content is not kept, so no review this push could run is one the turn
 * started with; `null` otherwise.
 */
function reviewerBlock(reviewer: PushReviewerEnv): string | null {
  if (reviewer.untrusted.length === 0) return null;
  return sanitizeForTerminal(
    `review-gate: push blocked: an agent turn is open in this repository (session ${reviewer.session}) and ${
      reviewer.untrusted.join("; ")
    }: review-gate cannot tell your edit from the agent's, so no reviewer it would run now is trusted. Push again once that turn's Stop answers for the work, or push with --no-verify yourself.\n`,
  );
}

/**
 * The note a push prints when an open agent turn held its reviewer back (terminal-safe), naming
 * the value that applies instead once the push's config is known; `""` when nothing was held back.
 */
function heldReviewerNote(reviewer: PushReviewerEnv, config?: Config): string {
  if (reviewer.unknownStart) {
    return config ? sanitizeForTerminal(`review-gate: ${unknownStartNote(reviewer)}\n`) : "";
  }
  if (reviewer.heldBack.length === 0) return "";
  const held = reviewer.heldBack.map((what) => config ? withApplied(what, config) : what);
  return sanitizeForTerminal(
    `review-gate: an agent turn is open in this repository (session ${reviewer.session}): the push reviews with the reviewer that turn started with, without ${
      held.join(", ")
    }. A change you made applies once that turn's Stop answers for the work.\n`,
  );
}

/** Under a turn whose start is unknown, a review that cannot run blocks (`on_error: "block"`). */
function heldStrict<T extends { config: Config }>(loaded: T, reviewer: PushReviewerEnv): T {
  if (!reviewer.unknownStart) return loaded;
  const { config } = loaded;
  const pre_push = { ...config.gates.pre_push, on_error: "block" as const };
  return { ...loaded, config: { ...config, gates: { ...config.gates, pre_push } } };
}

/**
 * A held-back variable that sets a config key (`REVIEW_GATE_TIMEOUT_SECONDS (set since the turn
 * started)`) with the value that applies instead added (docs/design.md "Pre-push gate"): e.g.
 * `…: the review's timeout stays 600 s (timeout_seconds))`.
 */
function withApplied(what: string, config: Config): string {
  const key = envConfigKey(what.split(" ")[0]);
  if (!key || !what.endsWith(")")) return what;
  const value = (config as unknown as Record<string, unknown>)[key];
  const applies = key === "timeout_seconds"
    ? `the review's timeout stays ${value} s (timeout_seconds)`
    : `${key} stays ${JSON.stringify(value)}`;
  return `${what.slice(0, -1)}: ${applies})`;
}
