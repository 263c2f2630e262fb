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
import { sanitizeForTerminal } from "../render/sanitize.ts";
import type { ReviewAnswer } from "../answer/types.ts";
import { type Config, loadConfig } from "../config.ts";
import { resolveRepo } from "../git/repo.ts";
import { PRE_PUSH_RECHECK_HINT, renderNotReviewed, renderPrePushBlock } from "./decision.ts";
import { ALLOW, type HookInput, type HookOutput, hooksSwitchedOff } from "./hook_io.ts";
import { parsePushLines } from "./pre_push.ts";
import { resolvePushRange } from "./push_range.ts";
import { blockingFindings, sortFindings } from "../review/policy.ts";
import { verdictIdentity } from "../review/identity.ts";
import { readCache } from "../store/cache.ts";
import { ensureStateDir } from "../store/state.ts";
import { memoKey, readMemo } from "../store/verdict_memo.ts";

/** Blocking findings of an answer under the config's policy, most severe first. */
function blockingOf(answer: ReviewAnswer, config: Config) {
  return sortFindings(
    blockingFindings(answer, { failOn: config.fail_on, minConfidence: config.min_confidence }),
  );
}

/**
 * The cached verdict of a range reviewed before (same commits, provider, model, prompt, schema and
 * budgets), found without collecting the change: the fast path of a re-push.
 */
async function cachedVerdict(
  config: Config,
  options: { commonDir: string; from: string; to: string },
): Promise<
  { memo: string; hit: { answer: ReviewAnswer; runDir?: string; status: string } | null }
> {
  const memo = await memoKey({
    ...await verdictIdentity(config, { kind: "review" }),
    from: options.from,
    to: options.to,
  });
  if (!config.cache) return { memo, hit: null };
  const state = await ensureStateDir(options.commonDir);
  const cacheKey = await readMemo(state, memo);
  const entry = cacheKey ? await readCache<ReviewAnswer>(state, cacheKey) : null;
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
 * Run the pre-push gate.
 *
 * @returns exit 0 (push goes ahead) or 1 (blocked), with all text on stderr
 * @throws {import("../errors.ts").ConfigError} on invalid config (the CLI reports it; exit 2 blocks
 *   the push, which is right: the user's gate is misconfigured)
 */
export async function runPrePushGate(input: HookInput, args: PrePushArgs): Promise<HookOutput> {
  if (hooksSwitchedOff(input.env)) return ALLOW;
  const { updates, notes } = parsePushLines(input.stdinText);
  const stderr: string[] = notes.map((n) => `review-gate: ${n}\n`);
  if (updates.length === 0) return { stdout: "", stderr: stderr.join(""), exitCode: 0 };
  const repo = await resolveRepo(input.runner, input.cwd);
  const { config } = await loadConfig({ root: repo.root, env: input.env });
  const gate = config.gates.pre_push;
  if (!gate.enabled) return { stdout: "", stderr: stderr.join(""), exitCode: 0 };

  let exitCode = 0;
  let reviewed = 0;
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
    const { memo, hit } = await cachedVerdict(config, {
      commonDir: repo.commonDir,
      from: range.from,
      to: range.to,
    });
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
