/**
 * One run's folder: `runs/<run-id>/` with `run.json` (always: status "running" from the start,
 * replaced atomically by the final record at the end, so a run killed with `kill -9` still
 * explains itself), `transcript/` (always, also on failure) and `answer.json` + `review.md` (only on
 * success, written together) — docs/design.md "Store". `answer.json` is the commit marker: it is
 * renamed into place last, so a reader that finds it also finds `review.md`. The review that writes
 * a run holds `.lock` in its folder (an exclusive `flock`, lib/store/lock.ts) from just after the
 * folder is made until its final `run.json` is written: `prune` leaves a run whose lock is held.
 *
 * @module
 */
import { join } from "../base/path.ts";
import type { AttemptRecord } from "../session/types.ts";
import type { StoredRunRecord } from "./run_record.ts";
import { jsonFileText, jsonText, stageStoreFile, writeStoreFile } from "./_write.ts";
import { guardStore } from "./_guard.ts";
import { StoreError } from "../base/errors.ts";
import { lockFile } from "./lock.ts";

/** An attempt as the transcript stores it: its record plus raw output (lib/session/call.ts AttemptRun). */
export interface TranscriptAttempt extends AttemptRecord {
  stdout: Uint8Array;
  stderr: Uint8Array;
}

const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/**
 * A new sortable run id, `YYYYMMDDTHHMMSSZ-<6 hex>` (UTC, random suffix).
 *
 * @param now the clock reading
 * @returns e.g. "20240102T030405Z-a1b2c3"
 */
export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Create `runs/<id>/transcript/` under the state dir.
 *
 * @param state the state dir (lib/store/state.ts)
 * @param id a run id from {@linkcode newRunId}
 * @returns the absolute run folder
 * @throws {TypeError} when `id` is not a run id
 * @throws {import("../base/errors.ts").StoreError} when the folder cannot be created (permissions, a
 *   full disk, the run exists)
 */
export async function createRunDir(state: string, id: string): Promise<string> {
  if (!RUN_ID.test(id)) {
    throw new TypeError(`Invalid run id "${id}": expected YYYYMMDDTHHMMSSZ-xxxxxx`);
  }
  const runs = join(state, "runs");
  const runDir = join(runs, id);
  await guardStore(runDir, async () => {
    await Deno.mkdir(runs, { recursive: true, mode: 0o700 });
    await Deno.mkdir(runDir, { mode: 0o700 });
    await Deno.mkdir(join(runDir, "transcript"), { mode: 0o700 });
  });
  return runDir;
}

/** The lock file of a run folder, held while its review writes it. */
export const RUN_LOCK = ".lock";

/**
 * Hold a new run folder's lock for as long as its review writes it (`prune` leaves a locked run).
 *
 * @param runDir the run folder, just created by {@linkcode createRunDir}
 * @returns how to let it go (safe to call twice; the kernel lets go when the process dies)
 * @throws {import("../base/errors.ts").StoreError} when the lock file cannot be made or had
 */
export async function holdRunDir(runDir: string): Promise<() => void> {
  const path = join(runDir, RUN_LOCK);
  return await guardStore(path, async () => {
    // nobody else locks a run this young (prune passes over it): the wait is a formality
    const lock = await lockFile(path, { timeoutMs: 5_000 });
    if (!lock) throw new Error("another process holds it");
    return lock.release;
  }, "the run's lock");
}

/**
 * Write every attempt's transcript: `transcript/attempt-N.stdout`, `.stderr` (raw bytes) and
 * `attempt-N.json` (the record without the bytes). Call it on every outcome, failures included.
 *
 * @param runDir the run folder
 * @param attempts attempts in order; N is each attempt's `n`
 * @throws {import("../base/errors.ts").StoreError} on a file-system failure (names the transcript folder)
 */
export async function writeTranscript(
  runDir: string,
  attempts: readonly TranscriptAttempt[],
): Promise<void> {
  const dir = join(runDir, "transcript");
  await guardStore(dir, async () => {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    for (const { stdout, stderr, ...record } of attempts) {
      const base = join(dir, `attempt-${record.n}`);
      await Deno.writeFile(`${base}.stdout`, stdout, { mode: 0o600 });
      await Deno.writeFile(`${base}.stderr`, stderr, { mode: 0o600 });
      await writeStoreFile(`${base}.json`, jsonText(record));
    }
  }, "the transcript");
}

/**
 * Write `run.json` atomically (temp file + rename): the "running" placeholder right after
 * {@linkcode createRunDir}, then the final record.
 *
 * @param runDir the run folder
 * @param record the final run record, or a `RunningRecord` (lib/store/run_record.ts) at the start
 * @throws {import("../base/errors.ts").StoreError} on a file-system failure (names `run.json`)
 */
export async function writeRunRecord(runDir: string, record: StoredRunRecord): Promise<void> {
  const path = join(runDir, "run.json");
  await guardStore(path, () => writeStoreFile(path, jsonFileText(record)), "the run record");
}

/** Default names of the two success files (the review kind's). */
export const SUCCESS_FILES = { answer: "answer.json", markdown: "review.md" } as const;

/**
 * Write the answer and its markdown together (`answer.json` + `review.md` for a review,
 * `compliance.json` + `compliance.md` for a compliance review): both to temp names first, then the
 * markdown renamed, then the answer (the commit marker) — a reader never sees the answer without
 * the markdown.
 *
 * @param runDir the run folder
 * @param success the decoded answer (serialised as JSON), the rendered markdown, and the file
 *   names (default {@linkcode SUCCESS_FILES})
 * @throws {import("../base/errors.ts").StoreError} on a file-system failure; temp files are removed
 */
export async function writeSuccess(
  runDir: string,
  success: {
    answer: unknown;
    markdown: string;
    files?: { readonly answer: string; readonly markdown: string };
  },
): Promise<void> {
  const files = success.files ?? SUCCESS_FILES;
  const answerPath = join(runDir, files.answer);
  const reviewPath = join(runDir, files.markdown);
  const staged: string[] = [];
  try {
    const review = await stageStoreFile(reviewPath, success.markdown);
    staged.push(review.temp);
    const answer = await stageStoreFile(answerPath, jsonText(success.answer));
    staged.push(answer.temp);
    await Deno.rename(review.temp, review.target);
    await Deno.rename(answer.temp, answer.target);
  } catch (error) {
    for (const temp of staged) await Deno.remove(temp).catch(() => {});
    throw new StoreError(runDir, error, `${files.answer} and ${files.markdown} in`);
  }
}

/**
 * Read a run's `run.json`.
 *
 * @param runDir the run folder
 * @returns the record (a finished run's, or the "running" placeholder), or `null` when it is
 *   missing or unreadable
 */
export async function readRunRecord(runDir: string): Promise<StoredRunRecord | null> {
  try {
    const value = JSON.parse(await Deno.readTextFile(join(runDir, "run.json")));
    return typeof value?.status === "string" && typeof value?.id === "string" ? value : null;
  } catch {
    return null;
  }
}

/**
 * Read a successful run's answer file.
 *
 * @param runDir the run folder
 * @param name the answer kind's answer file (`answer.json`, `compliance.json`)
 * @returns the parsed answer, or `undefined` when there is none (the run did not succeed)
 */
export async function readAnswer(runDir: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(join(runDir, name)));
  } catch {
    return undefined;
  }
}
