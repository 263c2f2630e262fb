/**
 * `review-gate prune`'s work on the store (README "Where runs are stored", docs/design.md "Store"):
 * every kind of state review-gate keeps — the repository's runs, verdict cache, verdict memos, push
 * stamps, jobs, turn records, background-work files and the lines of its two ledgers; the user's
 * anchors and stop stamps — that nobody wrote since a time goes, except what is in use now:
 *
 * - a run whose review holds its lock (lib/store/run_dir.ts `holdRunDir`), or whose folder has no
 *   `run.json` yet and started within the hour (its review is making it);
 * - the newest finished run (`show` and `ack RUN` read it by default), a run a kept job names
 *   (`result` reads it), a run a kept ledger line names (every line's id leads to its folder), and
 *   the run a kept run's cached verdict came from;
 * - a job not ended (queued or running: the caller settles dead ones first, as `jobs` does);
 * - a turn record a Stop holds the lock of, background-work files whose worker holds its lock, and
 *   every turn record, anchor, stop stamp and work file written within `openTurnMs` (a turn may be
 *   open: docs/design.md "Pre-push gate" "Open agent turns"), whatever the age asked for;
 * - a turn record and its anchor whose last Stop blocked, or whose turn's work no Stop answered for
 *   (lib/store/unanswered.ts): a resumed session's Stop reviews that work from its baseline;
 * - today's (UTC) ledger lines: the daily budget adds them up (docs/design.md "Ledger and budget");
 * - a pending push stamp younger than an hour (a pre-push hook is sealing it).
 *
 * It takes the locks the writers take, without waiting (lib/store/lock.ts `tryLockFile`): what a
 * writer holds is kept and counted as in use. The per-user key, `installed.json`, the record of
 * review-gate's own output files (bounded), the stores' `.pruned` markers and any file it does not
 * know are never touched, nor is anything in the repository's worktree.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { compareCodeUnits } from "../base/compare.ts";
import { isOwnFolder, oldEntries } from "./_prune.ts";
import { findRun } from "./find_run.ts";
import {
  ENDED_STATES,
  endedBefore,
  jobLogPath,
  type JobRecord,
  jobsDir,
  removeJob,
} from "./jobs.ts";
import { dropLines } from "./line_log.ts";
import { tryLockFile } from "./lock.ts";
import { recordsPath } from "./records.ts";
import { RUN_LOCK } from "./run_dir.ts";
import { workDir } from "./turn_work.ts";
import { workLedgerPath } from "./work_ledger.ts";
import { unansweredAnchor, unansweredRecord } from "./unanswered.ts";

/** Every kind of state `prune` removes, in the order it reports them. */
export const PRUNE_KINDS = [
  "runs",
  "cache entries",
  "verdict memos",
  "push stamps",
  "jobs",
  "turn records",
  "background-work files",
  "ledger lines",
  "turn tallies",
  "anchors",
  "stop stamps",
] as const;
/** One kind of state. */
export type PruneKind = typeof PRUNE_KINDS[number];

/** What `prune` is asked. */
export interface PruneRequest {
  /** Remove what nobody wrote since this time (ms since the epoch). */
  before: number;
  /** The clock reading `before` was taken from. */
  now: Date;
  /** Say what would go; remove nothing. */
  dryRun: boolean;
  /** The repository's state dir (lib/store/state.ts), or `null` outside a repository. */
  state: string | null;
  /** The per-user state folder (lib/store/user_state.ts), or `null` when none is known. */
  userState: string | null;
  /** The repository's jobs, each settled first when not a dry run (lib/jobs/refresh.ts). */
  jobs: readonly JobRecord[];
  /** How long after its last write a turn may still be open, ms (its files are in use till then). */
  openTurnMs: number;
  /** Where the user's key is, to read the sealed turn records (default the process's environment). */
  env?: Record<string, string | undefined>;
}

/** What went (or would go) of one kind. */
export interface PruneRemoved {
  kind: PruneKind;
  /** Entries (runs, files, jobs) or lines removed. */
  count: number;
  /** Their bytes on disk. */
  bytes: number;
  /** What went: paths (a file or folder; for ledger lines, the ledger's path once). */
  paths: string[];
}

/** Something older than asked that was kept, and why. */
export interface PruneKept {
  kind: PruneKind;
  /** Its path (for ledger lines, the ledger's). */
  path: string;
  /** How many entries or lines (1 but for ledger lines). */
  count: number;
  /** Why it is in use, for people. */
  reason: string;
}

/** What `prune` did, or would do. */
export interface PruneResult {
  removed: PruneRemoved[];
  kept: PruneKept[];
  /** What could not be removed, with the error's message (it stays). */
  failed: { path: string; reason: string }[];
}

/** How long a run folder without `run.json` is taken for one its review is making, ms. */
const RUN_BIRTH_MS = 3_600_000;
/** How long a pending push stamp is taken for one a pre-push hook is sealing, ms. */
const PENDING_STAMP_MS = 3_600_000;
/** Longest wait for a ledger's lock, ms. */
const LEDGER_LOCK_MS = 5_000;

const RUN_ID = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[0-9a-f]{6}$/;

/** The plan being carried out: one tally per kind, and what was kept or failed. */
class Tally {
  readonly removed = new Map<PruneKind, PruneRemoved>();
  readonly kept: PruneKept[] = [];
  readonly failed: { path: string; reason: string }[] = [];

  constructor(readonly dryRun: boolean) {
    for (const kind of PRUNE_KINDS) this.removed.set(kind, { kind, count: 0, bytes: 0, paths: [] });
  }

  /** Count an entry as removed (it was, or a dry run would have). */
  gone(kind: PruneKind, path: string, bytes: number, count = 1): void {
    const entry = this.removed.get(kind)!;
    entry.count += count;
    entry.bytes += bytes;
    entry.paths.push(path);
  }

  keep(kind: PruneKind, path: string, reason: string, count = 1): void {
    this.kept.push({ kind, path, reason, count });
  }

  /**
   * Remove `paths` (folders with what they hold), unless a dry run; a failure is noted, the rest
   * still go.
   *
   * @returns true when all went (or a dry run)
   */
  async remove(paths: readonly string[]): Promise<boolean> {
    if (this.dryRun) return true;
    let ok = true;
    for (const path of paths) {
      try {
        await Deno.remove(path, { recursive: true });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) continue;
        ok = false;
        this.failed.push({ path, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return ok;
  }

  /**
   * Take the lock a writer takes, without waiting (a dry run creates no lock file).
   *
   * @returns the held lock, `null` when a writer holds it, `undefined` when it cannot be had at all
   *   (noted as a failure: what it guards stays)
   */
  async lock(path: string): Promise<{ release: () => void } | null | undefined> {
    try {
      return await tryLockFile(path, { create: !this.dryRun });
    } catch (error) {
      this.failed.push({ path, reason: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }

  result(): PruneResult {
    return {
      removed: PRUNE_KINDS.map((kind) => this.removed.get(kind)!),
      kept: this.kept,
      failed: this.failed,
    };
  }
}

/**
 * Remove (or, with `dryRun`, find) the state nobody wrote since `before`, but what is in use (see
 * the module doc).
 *
 * @param request what to prune and where
 * @returns what went, what was kept and why, what could not be removed
 * @throws Deno.errors from listing a state folder (other than a missing one)
 */
export async function pruneState(request: PruneRequest): Promise<PruneResult> {
  const tally = new Tally(request.dryRun);
  const { state } = request;
  if (state !== null) {
    const ledger = await ledgerKeeps(state, request);
    const jobRuns = await pruneJobs(state, request, tally);
    await pruneRuns(state, request, tally, { ledger: ledger.ids, jobs: new Set(jobRuns) });
    await pruneFiles(tally, "cache entries", join(state, "cache"), request, {
      match: (e) => e.isFile && /^[0-9a-f]{64}\.json$/.test(e.name),
    });
    await pruneFiles(tally, "verdict memos", join(state, "cache", "memo"), request, {
      match: (e) => e.isFile && e.name.endsWith(".json"),
    });
    await pruneFiles(tally, "push stamps", join(state, "cache", "push"), request, {
      match: (e) => e.isFile,
      inUse: (e) =>
        /\.pending\.\d+$/.test(e.name) && request.now.getTime() - e.mtimeMs < PENDING_STAMP_MS
          ? "a pre-push hook is sealing it (pending, less than an hour old)"
          : null,
    });
    await pruneGroups(tally, "turn records", join(state, "sessions"), request, {
      // a session's record, its lock and its Stop claims (lib/gates/claude/claim.ts)
      group: (e) => groupName(e, [".json", ".lock", ".claims"]),
      lock: (name) => `${name}.lock`,
      held: "a Stop of its session holds its lock",
      inUse: (name) => unansweredRecord(join(state, "sessions", `${name}.json`), request.env),
    });
    await pruneGroups(tally, "background-work files", workDir(state), request, {
      group: (e) => groupName(e, [".poke.json", ".status.json", ".lock"]),
      lock: (name) => `${name}.lock`,
      held: "its background worker runs (holds its lock)",
    });
    await pruneLines(tally, "ledger lines", recordsPath(state), request, ledger.drop);
    await pruneLines(tally, "turn tallies", workLedgerPath(state), request, (line) => {
      const at = Date.parse(parseLine(line)?.at ?? "");
      return !Number.isNaN(at) && at < request.before;
    });
    if (ledger.today > 0) {
      tally.keep(
        "ledger lines",
        recordsPath(state),
        "today's (UTC) lines: the daily budget adds them up",
        ledger.today,
      );
    }
  }
  if (request.userState !== null) {
    const anchors = join(request.userState, "anchors");
    const floor = openTurnFloor(request);
    await pruneFiles(tally, "anchors", anchors, request, {
      match: (e) => e.isFile && e.name.endsWith(".json"),
      inUse: async (e) =>
        floor(e) ?? await unansweredAnchor(e.path, { state: request.state, env: request.env }),
    });
    await pruneFiles(tally, "stop stamps", anchors, request, {
      match: (e) => e.isFile && (e.name.endsWith(".stop") || e.name.endsWith(".stopped")),
      inUse: floor,
    });
  }
  return tally.result();
}

/** A file or folder older than asked. */
type Candidate = { name: string; path: string; mtimeMs: number; isDirectory: boolean };

/** "a turn may be open" for an entry written within the open-turn window, else nothing. */
function openTurnFloor(request: PruneRequest): (e: Candidate) => string | null {
  return (e) =>
    request.now.getTime() - e.mtimeMs < request.openTurnMs
      ? `a turn may be open (written within ${Math.round(request.openTurnMs / 3_600_000)} h)`
      : null;
}

/** Remove each old entry of `dir` that `match` picks and `inUse` does not keep. */
async function pruneFiles(
  tally: Tally,
  kind: PruneKind,
  dir: string,
  request: PruneRequest,
  at: {
    match: (e: Deno.DirEntry) => boolean;
    inUse?: (e: Candidate) => string | null | Promise<string | null>;
  },
): Promise<void> {
  for (const entry of await oldEntries(dir, { before: request.before, match: at.match })) {
    const why = (await at.inUse?.(entry)) ?? null;
    if (why !== null) {
      tally.keep(kind, entry.path, why);
      continue;
    }
    const bytes = await sizeOf(entry.path);
    if (await tally.remove([entry.path])) tally.gone(kind, entry.path, bytes);
  }
}

/** The group an entry of `sessions/` or `work/` belongs to: its name without the suffix. */
function groupName(entry: { name: string }, suffixes: readonly string[]): string | null {
  for (const suffix of suffixes) {
    if (entry.name.endsWith(suffix) && entry.name.length > suffix.length) {
      return entry.name.slice(0, -suffix.length);
    }
  }
  return null;
}

/**
 * Remove every group of files (a session's record, lock and claims; a session's work files) whose
 * newest file nobody wrote since `before`, unless a turn may be open or a writer holds the group's
 * lock: that lock is taken (without waiting) for as long as its files go.
 */
async function pruneGroups(
  tally: Tally,
  kind: PruneKind,
  dir: string,
  request: PruneRequest,
  at: {
    group: (e: { name: string }) => string | null;
    lock: (name: string) => string;
    held: string;
    /** Why a group stays whatever its age (a turn no Stop answered for), else `null`. */
    inUse?: (name: string) => Promise<string | null>;
  },
): Promise<void> {
  const groups = new Map<string, { paths: string[]; newest: number }>();
  // every entry of the folder with its time (the listing of lib/store/_prune.ts), by group
  const all = await oldEntries(dir, { before: Infinity, match: (e) => at.group(e) !== null });
  for (const entry of all) {
    const name = at.group(entry)!;
    const group = groups.get(name) ?? { paths: [], newest: 0 };
    group.paths.push(entry.path);
    group.newest = Math.max(group.newest, entry.mtimeMs);
    groups.set(name, group);
  }
  const floor = openTurnFloor(request);
  for (const [name, group] of [...groups].sort(([a], [b]) => compareCodeUnits(a, b))) {
    if (group.newest >= request.before) continue;
    const where = join(dir, `${name}.*`);
    const young = floor({ name, path: where, mtimeMs: group.newest, isDirectory: false });
    if (young !== null) {
      tally.keep(kind, where, young);
      continue;
    }
    const unanswered = (await at.inUse?.(name)) ?? null;
    if (unanswered !== null) {
      tally.keep(kind, where, unanswered);
      continue;
    }
    const lock = await tally.lock(join(dir, at.lock(name)));
    if (lock === undefined) continue;
    if (lock === null) {
      tally.keep(kind, where, at.held);
      continue;
    }
    try {
      // written since it was listed (a hook took it up again): in use
      const newest = Math.max(
        ...await Promise.all(
          group.paths.map(async (p) =>
            (await Deno.lstat(p).catch(() => null))?.mtime?.getTime() ?? 0
          ),
        ),
      );
      if (newest >= request.before) continue;
      const bytes = (await Promise.all(group.paths.map(sizeOf))).reduce((n, b) => n + b, 0);
      const lockPath = join(dir, at.lock(name));
      // the lock file last: it is held until the others are gone
      const paths = [...group.paths.filter((p) => p !== lockPath), lockPath];
      if (await tally.remove(paths)) tally.gone(kind, where, bytes, 1);
    } finally {
      lock.release();
    }
  }
}

/**
 * Remove the ended jobs nobody touched since `before` (their record and log, under the jobs lock:
 * lib/store/jobs.ts `removeJob`); keep the others.
 *
 * @returns the run ids the kept jobs name (`result` reads them)
 */
async function pruneJobs(
  state: string,
  request: PruneRequest,
  tally: Tally,
): Promise<string[]> {
  const runs: string[] = [];
  for (const job of request.jobs) {
    const path = join(jobsDir(state), `${job.id}.json`);
    const ended = ENDED_STATES.has(job.state);
    if (ended && endedBefore(job, request.before)) {
      const bytes = (await sizeOf(path)) + (await sizeOf(jobLogPath(state, job.id)));
      if (!request.dryRun) {
        try {
          await removeJob(state, job.id);
        } catch (error) {
          tally.failed.push({
            path,
            reason: error instanceof Error ? error.message : String(error),
          });
          if (job.runId) runs.push(job.runId);
          continue;
        }
      }
      tally.gone("jobs", path, bytes);
      continue;
    }
    if (job.runId) runs.push(job.runId);
    if (!ended && Date.parse(job.updatedAt) < request.before) {
      tally.keep("jobs", path, `the job is ${job.state}`);
    }
  }
  return runs;
}

/** One run folder as listed: its id, path, age (its `run.json`, else the folder) and record. */
interface ListedRun {
  id: string;
  path: string;
  mtimeMs: number;
  /** `run.json` as read (`null`: missing or unreadable). */
  record: { status?: string; cachedFrom?: { runId?: string } } | null;
}

/** Remove the runs nobody wrote since `before`, but those in use (module doc). */
async function pruneRuns(
  state: string,
  request: PruneRequest,
  tally: Tally,
  named: { ledger: ReadonlySet<string>; jobs: ReadonlySet<string> },
): Promise<void> {
  const listed = await listRuns(join(state, "runs"));
  const newest = await findRun(state, undefined).then((r) => r.record.id, () => null);
  const old = (run: ListedRun) => run.mtimeMs < request.before;
  const isNamed = (id: string) => named.ledger.has(id) || named.jobs.has(id);
  // a kept run's cached verdict came from another run: that one stays too (its id is in the record)
  const kept = new Set(listed.filter((r) => !old(r) || isNamed(r.id)).map((r) => r.id));
  if (newest !== null) kept.add(newest);
  for (const run of listed) {
    const from = run.record?.cachedFrom?.runId;
    if (kept.has(run.id) && typeof from === "string") kept.add(from);
  }
  for (const run of listed) {
    if (!old(run)) continue;
    const why = run.id === newest
      ? "the newest run (show and ack read it by default)"
      : named.jobs.has(run.id)
      ? "a kept job names it (result reads it)"
      : named.ledger.has(run.id)
      ? "a kept ledger line names it"
      : kept.has(run.id)
      ? "a kept run's cached verdict came from it"
      : run.record === null && request.now.getTime() - runStart(run.id) < RUN_BIRTH_MS
      ? "its review is creating it (no run.json yet)"
      : null;
    if (why !== null) {
      tally.keep("runs", run.path, why);
      continue;
    }
    const lock = await tally.lock(join(run.path, RUN_LOCK));
    if (lock === undefined) continue;
    if (lock === null) {
      tally.keep("runs", run.path, "its review is writing it (holds its lock)");
      continue;
    }
    try {
      const bytes = await sizeOf(run.path);
      if (await tally.remove([run.path])) tally.gone("runs", run.path, bytes);
    } finally {
      lock.release();
    }
  }
}

/** The run folders of `runs/` (none when it is a symlink), in id order, each with its `run.json` read. */
async function listRuns(dir: string): Promise<ListedRun[]> {
  const out: ListedRun[] = [];
  if (!await isOwnFolder(dir)) return out;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory || !RUN_ID.test(entry.name)) continue;
      const path = join(dir, entry.name);
      const runJson = join(path, "run.json");
      const info = await Deno.lstat(runJson).catch(() => null) ??
        await Deno.lstat(path).catch(() => null);
      const record = await Deno.readTextFile(runJson).then(JSON.parse).catch(() => null);
      out.push({
        id: entry.name,
        path,
        mtimeMs: info?.mtime?.getTime() ?? Infinity,
        record: typeof record === "object" && record !== null &&
            (typeof record.status === "string" || record.status === undefined)
          ? record
          : null,
      });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort((a, b) => compareCodeUnits(a.id, b.id));
}

/** When a run started, from its id (ms since the epoch). */
function runStart(id: string): number {
  const m = RUN_ID.exec(id);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : 0;
}

/**
 * Which ledger lines `prune` drops — those that finished before `before`, but not today (UTC) —
 * and the run ids of the lines it keeps.
 */
async function ledgerKeeps(
  state: string,
  request: PruneRequest,
): Promise<{ ids: Set<string>; drop: (line: string) => boolean; today: number }> {
  const today = request.now.toISOString().slice(0, 10);
  let todayOld = 0;
  const verdict = (line: string): "drop" | "keep" | "today" => {
    const value = parseLine(line);
    const finished = Date.parse(value?.finishedAt ?? "");
    if (Number.isNaN(finished) || finished >= request.before) return "keep";
    return value!.finishedAt!.slice(0, 10) === today ? "today" : "drop";
  };
  const ids = new Set<string>();
  const text = await Deno.readTextFile(recordsPath(state)).catch(() => "");
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const judged = verdict(line);
    if (judged === "drop") continue;
    if (judged === "today") todayOld++;
    const id = parseLine(line)?.id;
    if (typeof id === "string") ids.add(id);
  }
  return { ids, drop: (line) => verdict(line) === "drop", today: todayOld };
}

/** A ledger line's fields `prune` reads, or `null` when it does not parse. */
function parseLine(line: string): { id?: string; finishedAt?: string; at?: string } | null {
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** Drop a line file's old lines under its lock (lib/store/line_log.ts). */
async function pruneLines(
  tally: Tally,
  kind: PruneKind,
  path: string,
  request: PruneRequest,
  drop: (line: string) => boolean,
): Promise<void> {
  try {
    const dropped = await dropLines(path, drop, {
      timeoutMs: LEDGER_LOCK_MS,
      dryRun: request.dryRun,
    });
    if (dropped === null) {
      tally.keep(kind, path, "another process held its lock (try again)");
    } else if (dropped.lines > 0) {
      tally.gone(kind, path, dropped.bytes, dropped.lines);
    }
  } catch (error) {
    tally.failed.push({ path, reason: error instanceof Error ? error.message : String(error) });
  }
}

/** Bytes a file or folder takes (what it holds, symlinks not followed); 0 when gone. */
async function sizeOf(path: string): Promise<number> {
  const info = await Deno.lstat(path).catch(() => null);
  if (info === null) return 0;
  if (!info.isDirectory) return info.size;
  let total = 0;
  try {
    for await (const entry of Deno.readDir(path)) total += await sizeOf(join(path, entry.name));
  } catch {
    // unreadable: counted as what was read
  }
  return total;
}
