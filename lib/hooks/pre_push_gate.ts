/**
 * The git pre-push gate (`review-gate hook pre-push <remote> <url>`, DESIGN.md "Gates"): reads the
 * ref updates from stdin once, derives each update's range from the line and the remote in `$1`,
 * reviews the pushed commits' tree (never the worktree), and blocks the push (exit 1) on blocking
 * findings. Deletions and, by default, tags are skipped; a re-push of the same commits hits the
 * verdict cache (no model call). A review that could not run follows `on_error` (default: allow
 * with a loud "NOT reviewed" warning). At most {@linkcode MAX_REVIEWED_REFS} ref updates are
 * reviewed per push; the others are reported as NOT reviewed and follow `on_error` too. All human
 * output goes to stderr.
 *
 * @module
 */
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { resolveRepo } from "../git/repo.ts";
import { PRE_PUSH_RECHECK_HINT, renderNotReviewed, renderPrePushBlock } from "./decision.ts";
import type { HookInput, HookOutput } from "./hook_io.ts";
import { parsePushLines } from "./pre_push.ts";
import { resolvePushRange } from "./push_range.ts";
import { blockingFindings, policyOf, sortFindings } from "../kinds/review/policy.ts";
import { verdictIdentity } from "../review/identity.ts";
import { readCache } from "../store/cache.ts";
import { ensureStateDir } from "../store/state.ts";
import { memoKey, readMemo } from "../store/verdict_memo.ts";

/** Blocking findings of an answer under the config's policy, most severe first. */
function blockingOf(answer: ReviewAnswer, config: Config) {
  return sortFindings(blockingFindings(answer, policyOf(config)));
}

/** What every ref update of a push shares for the cache lookup: verdict identity and state dir. */
interface CacheContext {
  identity: Awaited<ReturnType<typeof verdictIdentity>>;
  /** The state dir, or `null` when the cache is off (then it is never created). */
  state: string | null;
}

/**
 * Build the {@linkcode CacheContext} once per push (both parts are the same for every ref update).
 *
 * @throws {import("../base/errors.ts").UsageError} for an unknown provider; whatever
 *   {@linkcode ensureStateDir} throws for a broken state dir
 */
async function cacheContextOf(config: Config, commonDir: string): Promise<CacheContext> {
  return {
    identity: await verdictIdentity(config, { kind: "review" }),
    state: config.cache ? await ensureStateDir(commonDir) : null,
  };
}

/**
 * The cached verdict of a range reviewed before (same commits, provider, model, prompt, schema and
 * budgets), found without collecting the change: the fast path of a re-push.
 */
async function cachedVerdict(
  context: CacheContext,
  range: { from: string; to: string },
): Promise<
  { memo: string; hit: { answer: ReviewAnswer; runDir?: string; status: string } | null }
> {
  const memo = await memoKey({ ...context.identity, from: range.from, to: range.to });
  if (context.state === null) return { memo, hit: null };
  const cacheKey = await readMemo(context.state, memo);
  const entry = cacheKey ? await readCache<ReviewAnswer>(context.state, cacheKey) : null;
  return {
    memo,
    hit: entry
      ? { answer: entry.answer, runDir: entry.record.runDir, status: entry.record.status }
      : null,
  };
}

/** Most ref updates reviewed (cached or by the model) in one push; the rest are NOT reviewed. */
export const MAX_REVIEWED_REFS = 20;

/** Arguments git passes to the hook: `$1` remote name (or URL), `$2` URL. */
export interface PrePushArgs {
  remote: string;
  url: string;
}

/**
 * Run the pre-push gate. The skip switches (`REVIEW_GATE=0`, `REVIEW_GATE_CHILD=1`) are checked
 * by the caller, `runHook` in lib/cli/hook.ts, before stdin is read.
 *
 * @returns exit 0 (push goes ahead), 1 (blocked) or 130 (interrupted), with all text on stderr
 * @throws {import("../base/errors.ts").ConfigError} on invalid config, and whatever git or the state dir
 *   throws: `runHook` reports it and lets the push go ahead unless the config it can still read says
 *   `gates.pre_push.on_error: "block"`
 */
export async function runPrePushGate(input: HookInput, args: PrePushArgs): Promise<HookOutput> {
  const { updates, notes } = parsePushLines(input.stdinText);
  const stderr: string[] = notes.map((n) => `review-gate: ${n}\n`);
  if (updates.length === 0) return { stdout: "", stderr: stderr.join(""), exitCode: 0 };
  const repo = await resolveRepo(input.runner, input.cwd);
  const { config } = await loadConfig({ root: repo.root, env: input.env });
  const gate = config.gates.pre_push;
  if (!gate.enabled) return { stdout: "", stderr: stderr.join(""), exitCode: 0 };

  let exitCode = 0;
  let reviewed = 0;
  // Same for every ref update; built on the first one reviewed, so a push of deletions or skipped
  // tags alone neither hashes nor creates the state dir.
  let cacheContext: Promise<CacheContext> | undefined;
  const overBound: string[] = [];
  for (const update of updates) {
    if (reviewed >= MAX_REVIEWED_REFS) {
      // No git call for these: a push of 200 refs stays bounded.
      if (!update.deletion && (!update.tag || gate.review_tags)) overBound.push(update.remoteRef);
      continue;
    }
    const resolved = await resolvePushRange(input.runner, {
      repo: repo.root,
      remote: args.remote,
      update,
      maxCommits: gate.max_commits,
      reviewTags: gate.review_tags,
    });
    if (resolved.kind === "skip") continue;
    const { range } = resolved;
    reviewed++;
    const label = `${update.remoteRef} (${range.commits} commit${range.commits === 1 ? "" : "s"})`;
    for (const note of range.notes) stderr.push(`review-gate: ${note}\n`);
    cacheContext ??= cacheContextOf(config, repo.commonDir);
    const { memo, hit } = await cachedVerdict(await cacheContext, range);
    if (hit) {
      const blocking = blockingOf(hit.answer, config);
      if (blocking.length > 0) {
        stderr.push(
          renderPrePushBlock({
            label: `${label} (cached verdict)`,
            findings: blocking,
            reviewPath: `${hit.runDir}/review.md`,
          }),
          `${PRE_PUSH_RECHECK_HINT}\n`,
        );
        exitCode = 1;
      } else {
        stderr.push(`review-gate: ${label}: ${hit.status} (cached verdict, no model call)\n`);
      }
      continue;
    }
    const { runReview } = await import("../review/run_review.ts");
    const outcome = await runReview(
      {
        cwd: repo.root,
        repo,
        target: { kind: "tree", from: range.from, to: range.to, label },
        kind: "review",
        config,
        useCache: true,
        memoKey: memo,
      },
      { runner: input.runner, env: input.env, now: input.now, signal: input.signal },
    );
    const { record, answer } = outcome;
    for (const warning of outcome.storeWarnings ?? []) {
      stderr.push(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
    }
    if (record.status === "interrupted") {
      stderr.push(`review-gate: interrupted; the push is stopped\n`);
      return { stdout: "", stderr: stderr.join(""), exitCode: 130 };
    }
    if (!answer) {
      if (record.status === "nothing-to-review") continue;
      const blocked = gate.on_error === "block";
      stderr.push(renderNotReviewed({
        label,
        reason: `${record.status}: ${record.message ?? "no details"}`,
        runPath: record.runDir || undefined,
        blocked,
      }));
      if (blocked) exitCode = 1;
      continue;
    }
    const blocking = blockingOf(answer, config);
    if (blocking.length > 0) {
      stderr.push(
        renderPrePushBlock({ label, findings: blocking, reviewPath: `${record.runDir}/review.md` }),
        record.cached ? `${PRE_PUSH_RECHECK_HINT}\n` : "",
      );
      exitCode = 1;
    } else {
      const extra = answer.findings.length > 0
        ? `, ${answer.findings.length} non-blocking finding(s)`
        : "";
      const cached = record.cached ? " (cached verdict)" : "";
      stderr.push(`review-gate: ${label}: ${record.status}${extra}${cached}\n`);
    }
  }
  if (overBound.length > 0) {
    const blocked = gate.on_error === "block";
    const shown = overBound.slice(0, 5).join(", ") + (overBound.length > 5 ? ", …" : "");
    stderr.push(renderNotReviewed({
      label:
        `everything past the first ${MAX_REVIEWED_REFS} ref updates (${overBound.length}: ${shown})`,
      reason:
        `at most ${MAX_REVIEWED_REFS} ref updates are reviewed per push; push them separately`,
      blocked,
    }));
    if (blocked) exitCode = 1;
  }
  return { stdout: "", stderr: stderr.join(""), exitCode };
}
