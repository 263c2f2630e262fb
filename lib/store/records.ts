/**
 * `records.jsonl`: one JSON line per finished review, appended under an exclusive lock
 * (docs/design.md "Store"), a `flock` on the file itself (lib/store/line_log.ts, which `prune`
 * rewrites it under). Each line is written with one write call. The
 * wait for the lock is bounded (a holder that never lets go costs a skipped line and a warning,
 * never a hang). Each line ends with an `hmac` field: the HMAC-SHA256 under the user's key
 * (lib/store/sealed.ts) of the line's JSON text without it, so the gates' daily budget
 * (lib/review/budget.ts) counts only lines review-gate wrote — a line the agent appends cannot spend
 * the budget and switch the model off.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { ExitCode, ReviewGateError } from "../base/errors.ts";
import { appendLines } from "./line_log.ts";
import { macsFor, noteUnverified } from "./sealed.ts";

/**
 * Path of the records file in a state dir.
 *
 * @param state the state dir
 * @returns `<state>/records.jsonl`
 */
export function recordsPath(state: string): string {
  return join(state, "records.jsonl");
}

/** Default bound on waiting for the records lock, milliseconds. */
export const RECORDS_LOCK_TIMEOUT_MS = 5_000;

/** Options of {@linkcode appendRecord}. */
export interface AppendOptions {
  /** Longest wait for the lock, milliseconds; default {@linkcode RECORDS_LOCK_TIMEOUT_MS}. */
  lockTimeoutMs?: number;
  /** Stop waiting for the lock at once (Ctrl-C); the line is skipped. */
  signal?: AbortSignal;
}

/** What {@linkcode appendRecord} did: the line was written, or skipped with a warning to show. */
export type AppendResult = { written: true } | { written: false; warning: string };

/**
 * Append one record as a JSON line; concurrent appenders (threads or processes) never interleave.
 * The wait for the lock is bounded: after `lockTimeoutMs` (or on `signal`) the line is skipped and a
 * warning returned, so a process that holds the lock forever cannot hang a review or a push. The
 * abandoned wait cannot be cancelled (`flock` blocks in a worker thread); when it ends, the lock it
 * got is released and the file closed, so later appends in the same process are not blocked
 * (lib/store/lock.ts `lockFile`).
 *
 * @param state the state dir (must exist)
 * @param line a JSON-serialisable object; serialised on one line
 * @param options lock timeout (ms), abort signal
 * @returns `{written: true}`, or `{written: false, warning}` when the lock was not had in time
 * @throws Deno.errors from the file system (open, lock, write)
 */
export async function appendRecord(
  state: string,
  line: object,
  options: AppendOptions = {},
): Promise<AppendResult> {
  const bytes = new TextEncoder().encode(await sealedLine(JSON.stringify(line)) + "\n");
  const path = recordsPath(state);
  const timeoutMs = options.lockTimeoutMs ?? RECORDS_LOCK_TIMEOUT_MS;
  const written = await appendLines(path, bytes, { timeoutMs, signal: options.signal });
  if (!written) {
    const why = options.signal?.aborted
      ? "interrupted while waiting for its lock"
      : `another process held its lock for more than ${Math.round(timeoutMs / 100) / 10} s`;
    return {
      written: false,
      warning:
        `Skipped the line of this run in "${path}": ${why}; the run folder keeps the full record (check for a stuck review-gate process)`,
    };
  }
  return { written: true };
}

/** The line with its `hmac` field last; unchanged when there is no key to trust. */
async function sealedLine(text: string): Promise<string> {
  const macs = await macsFor("record", { create: true });
  if ("problem" in macs || !text.startsWith("{") || text === "{}") return text;
  return `${text.slice(0, -1)},"hmac":"${await macs.mac(text)}"}`;
}

const HMAC_SUFFIX = /,"hmac":"([0-9a-f]{64})"\}$/;

/**
 * Only the lines review-gate wrote (their `hmac` verifies); the others are noted once.
 *
 * @param lines from {@linkcode readRecords} with `raw`
 */
async function verifiedOnly(lines: (RecordLine & { raw: string })[]): Promise<RecordLine[]> {
  const macs = await macsFor("record");
  const out: RecordLine[] = [];
  let rejected = 0;
  for (const { raw, ...line } of lines) {
    const match = HMAC_SUFFIX.exec(raw);
    const ok = match !== null && !("problem" in macs) &&
      await macs.check(`${raw.slice(0, match.index)}}`, match[1]);
    if (ok) out.push(line);
    else rejected++;
  }
  if (rejected > 0) {
    noteUnverified(
      `${rejected} line${rejected === 1 ? "" : "s"} of the cost ledger (records.jsonl)`,
      "not sealed with review-gate's key",
      "they do not count toward the daily budget",
    );
  }
  return out;
}

/** One line of `records.jsonl` as `storeRun` writes it (older lines may lack the newer fields). */
export interface RecordLine {
  id: string;
  status: string;
  blocking: boolean;
  target: string;
  provider: string;
  model?: string;
  /** True when the bundled fake provider answered (its cost is made up: `stats` shows "fake"). */
  fake?: boolean;
  /** Which gate asked (`pre-push`, `claude-stop`, `ci`…); absent for `review` run by hand. */
  gate?: string;
  /** `"warn"` when that gate was in warn mode (README "Warn first"); absent: it blocks. */
  mode?: "warn";
  /** Warn mode: the verdict had findings that would have blocked (`blocking` stays false). */
  would_block?: true;
  /** Warn mode: how many findings would have blocked. */
  would_block_findings?: number;
  cached: boolean;
  /** Answer kind when not a review (`compliance`). */
  kind?: string;
  /** Plan items by status (compliance runs). */
  items?: Record<string, number>;
  /** Provider invocations (0 for a cache hit or a review that made no model call). */
  attempts?: number;
  /** Tokens the provider reported for the run (the session's totals). */
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
  };
  /** USD the provider reported; absent when it reports none (not zero). */
  costUsd?: number;
  findings?: Record<string, number>;
  /** Findings acknowledged in `.review-gate/acks.json`. */
  acknowledged?: number;
  coverage?: string;
  /** Wall time of the whole run, milliseconds. */
  durationMs: number;
  finishedAt: string;
}

function parseLines(text: string): (RecordLine & { raw: string })[] {
  const out: (RecordLine & { raw: string })[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line);
      if (value && typeof value === "object" && typeof value.finishedAt === "string") {
        out.push({ ...value, raw: line });
      }
    } catch {
      // a line cut by a crash or edited by hand: skipped
    }
  }
  return out;
}

/**
 * Read the records; lines that do not parse (a crash mid-write, hand edits) are skipped.
 *
 * @param state the state dir
 * @param since only lines that finished at or after this time (the file is read backwards from
 *   its end in 64 KiB blocks, and only as far as needed: the ledger of a year costs no more than a
 *   day's when only today is asked)
 * @param options `verified`: only lines whose `hmac` verifies under the user's key (the others are
 *   noted for the gate's output: lib/store/sealed.ts `takeStateNotes`)
 * @returns the lines in file order (without the `hmac` check's raw text); [] when the file is
 *   missing
 * @throws {ReviewGateError} (exit 3) when the state dir or the file cannot be read (not a folder,
 *   no permission), naming the state dir
 */
export async function readRecords(
  state: string,
  since?: Date,
  options: { verified?: boolean } = {},
): Promise<RecordLine[]> {
  try {
    const lines = await readRecordsFile(state, since);
    if (options.verified) return await verifiedOnly(lines);
    return lines.map(({ raw: _, ...line }) => line);
  } catch (error) {
    if (error instanceof TypeError || error instanceof ReviewGateError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReviewGateError(
      `Cannot read the state directory "${state}": ${reason}; check that it is a folder you can read and write`,
      ExitCode.couldNotRun,
      { cause: error },
    );
  }
}

async function readRecordsFile(
  state: string,
  since?: Date,
): Promise<(RecordLine & { raw: string })[]> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(recordsPath(state), { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    const cutoff = since?.toISOString();
    // Lines of runs that ran at the same time may be a little out of order: read an hour further.
    const margin = since ? new Date(since.getTime() - 3_600_000).toISOString() : undefined;
    const chunks: Uint8Array[] = [];
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - 65_536);
      const chunk = new Uint8Array(end - start);
      await file.seek(start, Deno.SeekMode.Start);
      let read = 0;
      while (read < chunk.length) {
        const n = await file.read(chunk.subarray(read));
        if (n === null) break;
        read += n;
      }
      chunks.unshift(chunk);
      end = start;
      if (margin && end > 0 && olderThan(chunk, margin)) break;
    }
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) (bytes.set(c, at), at += c.length);
    let text = new TextDecoder().decode(bytes);
    if (end > 0) text = text.slice(text.indexOf("\n") + 1); // first line may be cut
    const lines = parseLines(text);
    return cutoff ? lines.filter((l) => l.finishedAt >= cutoff) : lines;
  } finally {
    file.close();
  }
}

/** True when the first whole line of a block finished before `margin` (ISO time). */
function olderThan(chunk: Uint8Array, margin: string): boolean {
  const text = new TextDecoder().decode(chunk);
  const first = parseLines(text.slice(text.indexOf("\n") + 1))[0];
  return first !== undefined && first.finishedAt < margin;
}
