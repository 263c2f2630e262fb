/**
 * Skip records (README "Skips"): every hook run that a switch let through without a review — the
 * user's `REVIEW_GATE=0` (or `false`, `off`, `no`), a gate disabled in the config — appends one
 * JSON line to `skips.jsonl` in the per-user state folder (lib/store/user_state.ts), which `stats`
 * counts per gate and reason. The installed hook scripts write most of them in `sh`, without
 * starting review-gate (`hooks/skip-record.sh`): they record what they can see for free — the hook's
 * directory, `GIT_DIR`, the session id, `$USER` — and `stats` finds the repository from it
 * (lib/store/skip_repo.ts). review-gate writes the others (a disabled gate, a switch value the
 * scripts did not see) with the repository resolved.
 *
 * A record is an audit aid, never an input of a decision, and it is not sealed: anything that runs
 * as the user (the agent under review among them) can append, edit or delete lines, so a missing
 * record proves nothing. `git push --no-verify`, and `HUSKY=0` under husky, run no hook of
 * review-gate's at all: they leave no record.
 *
 * @module
 */
import { userStateDir } from "./user_state.ts";

/** Why a hook let its change through unreviewed. */
export type SkipReason =
  /** `REVIEW_GATE` was set to a skip value (lib/gates/hook_io.ts `reviewGateSkips`). */
  | "env"
  /** `gates.<gate>.enabled` was false in the config that applied. */
  | "disabled"
  /**
   * `REVIEW_GATE_CHILD=1` was set (the marker of the reviewers review-gate starts, which anything
   * can set by hand: lib/gates/skip_record.ts `recordChildSkip`).
   */
  | "child";

/** One line of `skips.jsonl` (older or hand-written lines may lack fields). */
export interface SkipRecord {
  /** ISO time of the skip, UTC (seconds from the scripts, milliseconds from review-gate); null when `date` failed. */
  at: string | null;
  /** The gate that skipped: `pre-push`, `claude-stop`, `codex-stop`. */
  gate: string;
  reason: SkipReason;
  /** `env`: the value `REVIEW_GATE` had; `child`: the value `REVIEW_GATE_CHILD` had. */
  value?: string;
  /** `disabled`: where the gate was off, in words. */
  where?: string;
  /** The directory the hook ran in: a push's worktree root; a Stop's cwd as its payload says. */
  dir?: string;
  /** `GIT_DIR` as git gave it to the hook (linked worktrees). */
  gitDir?: string;
  /** The repository's git common dir, when the writer knew it (review-gate's own records). */
  repo?: string;
  /** `$USER` (else `$LOGNAME`) of the process that ran the hook. */
  user?: string;
  /** The agent marker set in the push's environment (lib/base/agent_env.ts), when one was. */
  agent?: string;
  /** Push: the remote git named (`$1`), a URL's user and password removed. */
  remote?: string;
  /** Push: git's ref lines, at most 20 (`<local ref> <local id> <remote ref> <remote id>`). */
  refs?: string[];
  /** Push: ref lines past the first 20. */
  moreRefs?: number;
  /** Stop: the agent's session id. */
  session?: string;
  /** Stop: whether the turn changed anything; null when not known without a review. */
  changed?: boolean | null;
  /** Who wrote the line: `hook` (an installed script), `review-gate`. */
  via?: string;
}

/** Most ref lines a record keeps. */
export const MAX_SKIP_REFS = 20;

/**
 * Where the skip records live.
 *
 * @param env `XDG_STATE_HOME`, `HOME`
 * @returns `<user state>/skips.jsonl`, or `undefined` when neither variable is set
 */
export function skipsPath(env: Record<string, string | undefined>): string | undefined {
  const dir = userStateDir(env);
  return dir ? `${dir}/skips.jsonl` : undefined;
}

/**
 * Append one record as one line, in one write to a file opened for appending (records of hooks
 * that run at once never interleave). Never throws: a skip goes ahead recorded or not.
 *
 * @param env where the file is ({@linkcode skipsPath})
 * @param record the record (`via` defaults to `review-gate`)
 * @returns `undefined` when written, else the sentence to show on stderr
 */
export async function appendSkip(
  env: Record<string, string | undefined>,
  record: SkipRecord,
): Promise<string | undefined> {
  const path = skipsPath(env);
  if (!path) {
    // no per-user state folder at all: said, never silent
    return "review-gate: could not record this skip: neither XDG_STATE_HOME nor HOME is set";
  }
  try {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
    const line = new TextEncoder().encode(JSON.stringify({ via: "review-gate", ...record }) + "\n");
    const file = await Deno.open(path, { append: true, create: true, mode: 0o600 });
    try {
      let written = await file.write(line);
      while (written < line.byteLength) written += await file.write(line.subarray(written));
    } finally {
      file.close();
    }
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `review-gate: could not record this skip in ${path}: ${reason}`;
  }
}

/** What {@linkcode readSkips} found. */
export interface SkipLedger {
  /** The records in file order. */
  records: SkipRecord[];
  /** Lines that are not a record (cut by a crash, edited by hand). */
  unreadable: number;
}

/**
 * Read every record.
 *
 * @param env where the file is ({@linkcode skipsPath})
 * @returns the records and the count of lines that are not one; none when the file is missing
 * @throws Deno.errors other than NotFound (a file that cannot be read)
 */
export async function readSkips(env: Record<string, string | undefined>): Promise<SkipLedger> {
  const path = skipsPath(env);
  let text = "";
  try {
    if (path) text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const records: SkipRecord[] = [];
  let unreadable = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const record = parseSkip(line);
    if (record) records.push(record);
    else unreadable++;
  }
  return { records, unreadable };
}

/** A line as a record, or `null` when it is not one. */
function parseSkip(line: string): SkipRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  if (typeof r.gate !== "string" || !["env", "disabled", "child"].includes(r.reason as string)) {
    return null;
  }
  if (r.at !== null && (typeof r.at !== "string" || Number.isNaN(Date.parse(r.at)))) return null;
  return value as SkipRecord;
}
