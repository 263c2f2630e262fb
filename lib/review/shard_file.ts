/**
 * The shard result file (`schemas/shard.schema.json`, README "Review across a CI matrix"): what
 * one shard of a split review writes with `--shard-output`, and how `review-gate merge` reads such
 * files. Another runner wrote them — for a fork's pull request, anyone — so reading is bounded
 * ({@linkcode MAX_SHARD_FILE_BYTES} each, {@linkcode MAX_SHARD_TOTAL_BYTES} in all,
 * {@linkcode MAX_SHARD_FILES}, regular files only), every file
 * is checked against the published schema by its generated validator and against its own digest,
 * and a file that fails is named with why, never used. The digest catches a file edited or
 * damaged on the way; it proves nothing about who wrote it (lib/review/shard_merge.ts decides
 * what a file may count for).
 *
 * @module
 */
import { compareCodeUnits } from "../base/compare.ts";
import { join, resolve } from "../base/path.ts";
import { readRegularText } from "../base/regular_file.ts";
import { sha256Hex } from "../base/sha256.ts";
import { type AjvError, describeError } from "../config/validate.ts";
import type { Usage } from "../providers/provider.ts";
import type { CallStatus } from "../session/call.ts";
import type { ReviewStatus } from "../store/run_record.ts";
import type { ShardSpec } from "../git/shards.ts";

/** Most bytes of one shard result file `merge` reads (8 MiB). */
export const MAX_SHARD_FILE_BYTES = 8 * 1024 * 1024;

/** Most shard result files one `merge` reads. */
export const MAX_SHARD_FILES = 512;

/** Most bytes of all the shard result files one `merge` reads (64 MiB). */
export const MAX_SHARD_TOTAL_BYTES = 64 * 1024 * 1024;

/** Most folder levels `merge` looks into below a folder it is given. */
const MAX_DEPTH = 4;

/** One part's result, for one provider. */
export interface ShardPartResult {
  /** 1-based part number. */
  part: number;
  provider: string;
  /** "ok" with an answer, else how the part's call ended. */
  status: Exclude<CallStatus, "not-reviewed">;
  cached: boolean;
  /** sha256 of the part's diff as the shard planned it. */
  digest: string;
  answer?: unknown;
  message?: string;
  sessionId?: string;
  model?: string;
  usage?: Usage;
  costUsd?: number;
  /** Provider invocations of the part's call. */
  attempts: number;
}

/** A shard result file's content (`schemas/shard.schema.json`). */
export interface ShardResult {
  version: 1;
  kind: "review-gate-shard-result";
  reviewGate: string;
  shard: ShardSpec;
  /** Absent when the shard's review ended before it planned one. */
  plan?: { identity: string; id: string; parts: number; assigned: number[] };
  change?: { digest: string; label: string; from: string; to: string };
  /** Every provider the shard asked was the bundled fake (lib/providers/bundled_fake.ts). */
  fakeProvider?: true;
  providers: string[];
  status: ReviewStatus;
  message?: string;
  runId?: string;
  coverage: { parts: number; reviewedLines: number; reviewedBytes: number };
  usage?: Usage;
  costUsd?: number;
  results: ShardPartResult[];
  /** sha256 of `JSON.stringify(results)`. */
  digest: string;
}

/** One file `merge` was given or found: its result, or why it cannot count. */
export interface LoadedShard {
  /** The path as given or found (relative to where merge runs when it was given so). */
  file: string;
  /** sha256 of the file's text (two copies of the same result are the same bytes). */
  textHash?: string;
  result?: ShardResult;
  /** Why it is not used: unreadable, too large, not JSON, not the schema, digest mismatch. */
  problem?: string;
  /** The shard it says it is, when it fits the schema (also when its digest does not match). */
  claim?: ShardSpec;
}

/** The digest a shard result carries over its results. */
export function resultsDigest(results: readonly ShardPartResult[]): Promise<string> {
  return sha256Hex(JSON.stringify(results));
}

/**
 * The text of a shard result file: its content with the digest of its results, as JSON.
 *
 * @param result everything but the digest
 * @returns pretty-printed JSON ending in a newline
 */
export async function shardResultText(result: Omit<ShardResult, "digest">): Promise<string> {
  const digest = await resultsDigest(result.results);
  return JSON.stringify({ ...result, digest }, null, 2) + "\n";
}

/**
 * Read and check one shard result file. Never throws: what is wrong becomes its `problem`.
 *
 * @param path absolute path of the file
 * @param file how to name it (as given)
 */
export async function readShardFile(path: string, file: string): Promise<LoadedShard> {
  let text: string;
  try {
    text = await readRegularText(path, MAX_SHARD_FILE_BYTES);
  } catch (error) {
    const why = error instanceof Deno.errors.InvalidData
      ? `not a regular file of at most ${MAX_SHARD_FILE_BYTES} bytes`
      : (error as Error).message;
    return { file, problem: `cannot be read: ${why}` };
  }
  const textHash = await sha256Hex(text);
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { file, textHash, problem: `not JSON (${(error as Error).message})` };
  }
  // the generated validator (lib/generated/, `deno task gen`) loads only when a file is read
  const { default: validate } = await import("../generated/shard_validator.js");
  if (!validate(value)) {
    const errors = (validate as unknown as { errors?: AjvError[] }).errors ?? [];
    const problems = errors.slice(0, 3).map((e) => describeError(e, "the file")).join("; ");
    return {
      file,
      textHash,
      problem: `not a shard result (${problems}; see \`review-gate schema shard\`)`,
    };
  }
  const result = value as ShardResult;
  if (await resultsDigest(result.results) !== result.digest) {
    return {
      file,
      textHash,
      claim: result.shard,
      problem: "tampered: its results do not match its digest (edited or damaged on the way)",
    };
  }
  return { file, textHash, result };
}

/**
 * Read the files `merge` found, one at a time, each bounded by {@linkcode MAX_SHARD_FILE_BYTES}
 * and all of them by {@linkcode MAX_SHARD_TOTAL_BYTES}: a file past the total is not read and says
 * so. Never throws.
 *
 * @param files from {@linkcode listShardFiles}
 */
export async function readShardFiles(
  files: readonly { path: string; file: string; bytes: number }[],
): Promise<LoadedShard[]> {
  const out: LoadedShard[] = [];
  let total = 0;
  for (const { path, file, bytes } of files) {
    total += Math.min(bytes, MAX_SHARD_FILE_BYTES + 1);
    out.push(
      total > MAX_SHARD_TOTAL_BYTES
        ? {
          file,
          problem: `not read: the files given hold more than ${MAX_SHARD_TOTAL_BYTES} bytes in all`,
        }
        : await readShardFile(path, file),
    );
  }
  return out;
}

/**
 * The files `merge FILE…|DIR` reads: each file given, and every `*.json` regular file in a folder
 * given (its subfolders too, {@linkcode MAX_DEPTH} deep, as `actions/download-artifact` lays out
 * one folder per artifact), in path order. A path that does not exist is a note (a matrix whose
 * every shard failed uploads nothing: merge then says NOT reviewed), never an error.
 *
 * @param paths as given on the command line
 * @param cwd where they are relative to
 * @returns the files (absolute path, as named, size in bytes) and notes
 * @throws {import("../base/errors.ts").UsageError} more than {@linkcode MAX_SHARD_FILES} files
 */
export async function listShardFiles(
  paths: readonly string[],
  cwd: string,
): Promise<{ files: { path: string; file: string; bytes: number }[]; notes: string[] }> {
  const files: { path: string; file: string; bytes: number }[] = [];
  const notes: string[] = [];
  const add = async (path: string, file: string, bytes: number) => {
    files.push({ path, file, bytes });
    if (files.length <= MAX_SHARD_FILES) return;
    const { UsageError } = await import("../base/errors.ts");
    throw new UsageError(
      `merge reads at most ${MAX_SHARD_FILES} shard result files; more were given or found: give the folder of one split review`,
    );
  };
  const walk = async (path: string, file: string, depth: number): Promise<void> => {
    const entries: string[] = [];
    for await (const entry of Deno.readDir(path)) entries.push(entry.name);
    for (const name of entries.sort(compareCodeUnits)) {
      const info = await Deno.stat(join(path, name)).catch(() => null);
      if (info?.isDirectory && depth < MAX_DEPTH) {
        await walk(join(path, name), join(file, name), depth + 1);
      } else if (info?.isFile && name.toLowerCase().endsWith(".json")) {
        await add(join(path, name), join(file, name), info.size);
      }
    }
  };
  for (const given of paths) {
    const path = resolve(cwd, given);
    const info = await Deno.stat(path).catch(() => null);
    if (info === null) notes.push(`${given}: no such file or folder (no shard result there)`);
    else if (info.isDirectory) await walk(path, given, 0);
    else await add(path, given, info.size);
  }
  return { files, notes };
}
