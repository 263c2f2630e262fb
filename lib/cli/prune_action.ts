/**
 * The work of `review-gate prune`, loaded when it runs (lib/cli/prune.ts defines the command: its
 * flags and help): read the age, find the repository's and the user's state folders, settle the
 * repository's jobs as `jobs` does (not in a dry run: it writes nothing), prune
 * (lib/store/prune_state.ts) and say what went and what was kept, per kind, in counts and bytes.
 *
 * @module
 */
import { GitError, UsageError } from "../base/errors.ts";
import { parseAge } from "../base/duration.ts";
import { formatBytes } from "../git/coverage_text.ts";
import { resolveRepo } from "../git/repo.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { OPEN_TURN_HOURS } from "../gates/pre_push/open_turns.ts";
import { refreshJob } from "../jobs/refresh.ts";
import { listJobs } from "../store/jobs.ts";
import { type PruneKept, type PruneResult, pruneState } from "../store/prune_state.ts";
import { stateDir } from "../store/state.ts";
import { userStateDir } from "../store/user_state.ts";
import type { CliDeps } from "./deps.ts";

/** `prune`'s parsed flags. */
export interface PruneFlags {
  olderThan?: string;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `prune`: the command's work.
 *
 * @param defaultAge the age without `--older-than` (lib/cli/prune.ts)
 * @throws {UsageError} (exit 2) for an age it cannot read
 */
export async function pruneAction(
  flags: PruneFlags,
  deps: CliDeps,
  defaultAge: string,
): Promise<void> {
  const age = flags.olderThan ?? defaultAge;
  const ms = parseAge(age);
  if (ms === null) {
    throw new UsageError(
      `Invalid --older-than "${age}": give a whole number and a unit, s, m, h, d or w (0s, 90m, 12h, 7d, 2w)`,
    );
  }
  const now = deps.now();
  const dryRun = flags.dryRun === true;
  const repo = await resolveRepo(deps.runner, deps.cwd).catch((error) => {
    if (error instanceof GitError) return null; // not in a repository: the user's state only
    throw error;
  });
  const state = repo ? stateDir(repo.commonDir) : null;
  const io = { runner: deps.runner, now: deps.now };
  const listed = state ? await listJobs(state) : [];
  // a job whose process died is settled first, as `jobs` does (a dry run changes nothing)
  const jobs = dryRun ? listed : await Promise.all(listed.map((j) => refreshJob(state!, j, io)));
  const userState = userStateDir(deps.env) ?? null;
  const result = await pruneState({
    before: now.getTime() - ms,
    now,
    dryRun,
    state,
    userState,
    jobs,
    openTurnMs: OPEN_TURN_HOURS * 3_600_000,
    env: deps.env,
  });
  if (flags.json) {
    deps.stdout.write(
      JSON.stringify(
        {
          olderThan: age,
          before: new Date(now.getTime() - ms).toISOString(),
          dryRun,
          stateDirs: { repository: state, user: userState },
          removed: result.removed.filter((r) => r.count > 0),
          kept: result.kept,
          failed: result.failed,
        },
        null,
        2,
      ) + "\n",
    );
  } else {
    deps.stdout.write(sanitizeForTerminal(pruneText(result, { age, ms, now, dryRun, state })));
  }
  if (result.failed.length > 0) {
    for (const f of result.failed) {
      deps.stderr.write(
        sanitizeForTerminal(`review-gate: could not remove ${f.path}: ${f.reason}\n`),
      );
    }
  }
}

/**
 * The report for people: what was asked, what went per kind (`removed 41 runs (12.3 MB), …`), what
 * was kept in use and why; a dry run lists every path it would remove.
 */
export function pruneText(
  result: PruneResult,
  at: { age: string; ms: number; now: Date; dryRun: boolean; state: string | null },
): string {
  const since = new Date(at.now.getTime() - at.ms).toISOString().slice(0, 16).replace("T", " ");
  const lines = [
    `review-gate prune: the state nobody wrote since ${since} UTC (older than ${at.age})${
      at.dryRun ? "; dry run: nothing is removed" : ""
    }`,
  ];
  if (at.state === null) {
    lines.push("not in a git repository: only your own state (anchors, stop stamps)");
  }
  const removed = result.removed.filter((r) => r.count > 0);
  const verb = at.dryRun ? "would remove" : "removed";
  lines.push(
    removed.length === 0
      ? `${verb} nothing`
      : `${verb} ${
        removed.map((r) => `${r.count} ${unit(r.kind, r.count)} (${formatBytes(r.bytes)})`)
          .join(", ")
      }`,
  );
  if (at.dryRun) {
    for (const r of removed) for (const path of r.paths) lines.push(`  ${r.kind}: ${path}`);
  }
  if (result.kept.length > 0) {
    const total = result.kept.reduce((n, k) => n + k.count, 0);
    lines.push(`kept ${total} in use:`);
    for (const [reason, kept] of byReason(result.kept)) {
      const count = kept.reduce((n, k) => n + k.count, 0);
      lines.push(`  ${count} ${unit(kept[0].kind, count)}: ${reason}`);
      if (at.dryRun) { for (const k of kept) lines.push(`    ${k.path}`); }
    }
  }
  return lines.join("\n") + "\n";
}

/** A kind's name for `count` of it: "1 run", "2 runs", "1 cache entry". */
function unit(kind: string, count: number): string {
  if (count !== 1) return kind;
  return kind.replace(/entries$/, "entry").replace(/ies$/, "y").replace(/s$/, "");
}

/** The kept entries grouped by kind and reason, in the order first met. */
function byReason(kept: readonly PruneKept[]): [string, PruneKept[]][] {
  const groups = new Map<string, PruneKept[]>();
  for (const k of kept) {
    const key = `${k.kind}\u0000${k.reason}`;
    groups.set(key, [...groups.get(key) ?? [], k]);
  }
  return [...groups].map(([key, list]) => [key.split("\u0000")[1], list]);
}
