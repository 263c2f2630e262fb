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
import { join, resolve, sep } from "../base/path.ts";
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

/** Most folder entries (files, folders, anything) `merge` looks at in all the folders given. */
export const MAX_LISTED_ENTRIES = 8192;

/** Most notes the listing of the folders gives (then one saying how many more there were). */
const MAX_LIST_NOTES = 64;

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
  /** sha256 of the JSON of everything else in the file ({@linkcode shardDigest}). */
  digest: string;
}

/** One file `merge` was given or found: its result, or why it cannot count. */
export interface LoadedShard {
  /** The path as given or found (relative to where merge runs when it was given so). */
  file: string;
  /** sha256 of the file's text: two copies of one result are the same bytes, so the same hash. */
  textHash?: string;
  result?: ShardResult;
  /**
   * Why it is not used: unreadable, too large, not JSON, not the schema, digest mismatch, no such
   * shard (`4/3`).
   */
  problem?: string;
  /**
   * The shard it says it is, when it fits the schema (also when its digest does not match, or it
   * names no shard that can exist: `4/3`).
   */
  claim?: ShardSpec;
}

/** What `merge` has to go on: the files read, or why none was. */
export interface ShardInput {
  files: readonly LoadedShard[];
  /** Why no file was read at all (more than {@linkcode MAX_SHARD_FILES}): every part then says it. */
  refused?: string;
}

/**
 * The digest a shard result carries: sha256 of the JSON of everything in it but the digest, in the
 * order written, so no field — results, status, coverage, shard, plan — can be edited unseen.
 *
 * @param result the result without its `digest`, its keys in the order of the file
 * @returns sha256 hex
 */
export function shardDigest(result: Omit<ShardResult, "digest">): Promise<string> {
  return sha256Hex(JSON.stringify(result));
}

/**
 * The text of a shard result file: its content with its digest, as JSON.
 *
 * @param result everything but the digest
 * @returns pretty-printed JSON ending in a newline
 */
export async function shardResultText(result: Omit<ShardResult, "digest">): Promise<string> {
  const digest = await shardDigest(result);
  return JSON.stringify({ ...result, digest }, null, 2) + "\n";
}

/**
 * Read and check one shard result file. Never throws: what is wrong becomes its `problem`.
 *
 * @param path absolute path of the file
 * @param file how to name it (as given)
 * @param maxBytes the most bytes to read (at most {@linkcode MAX_SHARD_FILE_BYTES}: what is left of
 *   {@linkcode MAX_SHARD_TOTAL_BYTES})
 * @returns the result, or its problem; `bytes` is what was read (0 when nothing was)
 */
export async function readShardFile(
  path: string,
  file: string,
  maxBytes = MAX_SHARD_FILE_BYTES,
): Promise<LoadedShard & { bytes: number }> {
  let text: string;
  try {
    text = await readRegularText(path, Math.min(maxBytes, MAX_SHARD_FILE_BYTES));
  } catch (error) {
    const why = error instanceof Deno.errors.InvalidData
      ? `not a regular file of at most ${MAX_SHARD_FILE_BYTES} bytes (${(error as Error).message})`
      : (error as Error).message;
    return { file, bytes: 0, problem: `cannot be read: ${why}` };
  }
  const bytes = new TextEncoder().encode(text).length;
  return { ...await checkShardText(text, file), bytes };
}

/** Check a shard result file's text: JSON, the schema, its digest, a shard that can exist. */
async function checkShardText(text: string, file: string): Promise<LoadedShard> {
  const textHash = await sha256Hex(text);
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    // the parser's message quotes the text: say where it fails, never what the file holds
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    return {
      file,
      textHash,
      problem: `not JSON${at ? ` (it does not parse at character ${at})` : ""}`,
    };
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
  const { digest, ...rest } = value as ShardResult;
  const claim = rest.shard;
  if (await shardDigest(rest) !== digest) {
    return {
      file,
      textHash,
      claim,
      problem: "tampered: it does not match its digest (edited or damaged on the way)",
    };
  }
  if (claim.index > claim.count) {
    return {
      file,
      textHash,
      claim,
      problem:
        `tampered: it says it is shard ${claim.index} of ${claim.count}, a shard no split has`,
    };
  }
  return { file, textHash, result: value as ShardResult };
}

/** A file `merge` found: where, how to name it, its size when listed. */
export interface ListedFile {
  path: string;
  file: string;
  bytes: number;
}

/**
 * Read the files `merge` found, one at a time, each bounded by {@linkcode MAX_SHARD_FILE_BYTES}
 * and all of them by {@linkcode MAX_SHARD_TOTAL_BYTES}, charged what was read: a file larger than
 * {@linkcode MAX_SHARD_FILE_BYTES} is refused unread (and charged nothing), and one that would take
 * the total past its bound is not read and says so. Never throws.
 *
 * @param files from {@linkcode listShardFiles}
 */
export async function readShardFiles(files: readonly ListedFile[]): Promise<LoadedShard[]> {
  const out: LoadedShard[] = [];
  let total = 0;
  for (const { path, file, bytes } of files) {
    if (bytes > MAX_SHARD_FILE_BYTES) {
      out.push({
        file,
        problem:
          `too large: ${bytes} bytes, more than the ${MAX_SHARD_FILE_BYTES} merge reads of one file (not read)`,
      });
    } else if (total + bytes > MAX_SHARD_TOTAL_BYTES) {
      out.push({
        file,
        problem:
          `not read: with its ${bytes} bytes the files read would hold more than ${MAX_SHARD_TOTAL_BYTES} bytes in all`,
      });
    } else {
      const { bytes: read, ...loaded } = await readShardFile(
        path,
        file,
        MAX_SHARD_TOTAL_BYTES - total,
      );
      total += read;
      out.push(loaded);
    }
  }
  return out;
}

/**
 * The files `merge FILE…|DIR` reads: each file given, and every `*.json` regular file in a folder
 * given (its subfolders too, {@linkcode MAX_DEPTH} deep, as `actions/download-artifact` lays out
 * one folder per artifact), in path order. A path that does not exist is a note (a matrix whose
 * every shard failed uploads nothing: merge then says NOT reviewed), never an error; so is anything
 * in a folder that is not read — a FIFO, socket, device or dangling link, a folder too deep or
 * that cannot be read (named with why, the rest read on). A folder's content is untrusted, so no
 * link in it is followed into a folder (`ln -s . loop` would list the folder again and again), and
 * a link to a file is read only when the file is inside the folder given (a `*.json` link to a
 * secret is never read, so nothing of it can be echoed). A folder reached twice (given twice, or
 * inside another given) is listed once. At most {@linkcode MAX_LISTED_ENTRIES} entries are looked
 * at and {@linkcode MAX_LIST_NOTES} notes given (then how many more). More than
 * {@linkcode MAX_SHARD_FILES} files, or more entries than that: the listing stops, and `refused`
 * says why none may be read (merge then says NOT reviewed for every part, in every format).
 *
 * @param paths as given on the command line (a path given is followed, a link too: the user chose
 *   it)
 * @param cwd where they are relative to
 * @returns the files (absolute path, as named, size in bytes), notes, and why none is to be read;
 *   never throws
 */
export async function listShardFiles(
  paths: readonly string[],
  cwd: string,
): Promise<{ files: ListedFile[]; notes: string[]; refused?: string }> {
  const listing = new Listing();
  for (const given of paths) {
    if (listing.full()) break;
    const path = resolve(cwd, given);
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch (error) {
      listing.note(
        error instanceof Deno.errors.NotFound
          ? `${given}: no such file or folder (no shard result there)`
          : `${given}: cannot be read (${(error as Error).message}); not searched`,
      );
      continue;
    }
    if (info.isDirectory) {
      const root = await Deno.realPath(path).catch(() => path);
      await listing.walk({ path, file: given, depth: 0, root });
    } else listing.files.push({ path, file: given, bytes: info.size });
  }
  const notes = listing.notesText();
  if (!listing.full()) return { files: listing.files, notes };
  const what = listing.entries > MAX_LISTED_ENTRIES
    ? `more than ${MAX_LISTED_ENTRIES} folder entries were found`
    : `more than ${MAX_SHARD_FILES} files were given or found`;
  return {
    files: [],
    notes,
    refused:
      `${what}, more than merge reads: none was read (give merge the folder of one split review)`,
  };
}

/** One folder to list: where, how to name it, how deep, and the real path of the folder given. */
interface FolderAt {
  path: string;
  file: string;
  depth: number;
  root: string;
}

/** {@linkcode listShardFiles}' state: what was found, the notes, and its bounds. */
class Listing {
  readonly files: ListedFile[] = [];
  /** Entries looked at in all folders. */
  entries = 0;
  private readonly notes: string[] = [];
  private unsaid = 0;
  /** Real paths of the folders listed. */
  private readonly listed = new Set<string>();

  full(): boolean {
    return this.files.length > MAX_SHARD_FILES || this.entries > MAX_LISTED_ENTRIES;
  }

  note(line: string): void {
    if (this.notes.length < MAX_LIST_NOTES) this.notes.push(line);
    else this.unsaid++;
  }

  notesText(): string[] {
    if (this.unsaid === 0) return this.notes;
    return [...this.notes, `and ${this.unsaid} more entries not read (not named)`];
  }

  /** List one folder's entries, and its subfolders' (never through a link). */
  async walk(at: FolderAt): Promise<void> {
    const real = await Deno.realPath(at.path).catch(() => at.path);
    if (this.listed.has(real)) return;
    this.listed.add(real);
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(at.path)) {
        names.push(entry.name);
        if (++this.entries > MAX_LISTED_ENTRIES) return;
      }
    } catch (error) {
      this.note(
        `${at.file}: a folder that cannot be read (${(error as Error).message}); not searched`,
      );
      return;
    }
    for (const name of names.sort(compareCodeUnits)) {
      if (this.full()) return;
      await this.entry(at, name);
    }
  }

  /** One entry of a folder: a subfolder listed, a `*.json` file kept, anything else noted. */
  private async entry(at: FolderAt, name: string): Promise<void> {
    const path = join(at.path, name);
    const named = join(at.file, name);
    const own = await Deno.lstat(path).catch(() => null);
    if (own?.isSymlink) return await this.link(at, { path, named, name });
    if (own?.isDirectory) {
      if (at.depth < MAX_DEPTH) await this.walk({ ...at, path, file: named, depth: at.depth + 1 });
      else this.note(`${named}: a folder more than ${MAX_DEPTH} levels deep; not searched`);
    } else if (own?.isFile) {
      if (isJson(name)) this.files.push({ path, file: named, bytes: own.size });
    } else this.note(`${named}: ${notRegular(own)}; not read`);
  }

  /** A link in a folder: never into a folder; to a file only inside the folder given. */
  private async link(at: FolderAt, e: { path: string; named: string; name: string }) {
    const info = await Deno.stat(e.path).catch(() => null);
    if (info?.isDirectory) {
      this.note(`${e.named}: a link to a folder; not searched (merge follows no link in a folder)`);
      return;
    }
    if (!info?.isFile) {
      this.note(`${e.named}: ${notRegular(info)}; not read`);
      return;
    }
    if (!isJson(e.name)) return;
    const real = await Deno.realPath(e.path).catch(() => null);
    if (real === null || !inside(real, at.root)) {
      this.note(`${e.named}: a link to a file outside the folder given; not read`);
      return;
    }
    this.files.push({ path: real, file: e.named, bytes: info.size });
  }
}

/** Is `name` a `*.json` file's (any case, as a case-insensitive file system names it)? */
function isJson(name: string): boolean {
  return name.toLowerCase().endsWith(".json");
}

/** Is the real path `path` inside the real folder `root` (both from `Deno.realPath`)? */
function inside(path: string, root: string): boolean {
  const folder = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(folder);
}

/** What a folder entry that is neither a folder nor a regular file is, in words. */
function notRegular(info: Deno.FileInfo | null): string {
  if (info === null) return "a link to nothing, or unreadable";
  if (info.isFifo) return "a FIFO, not a regular file";
  if (info.isSocket) return "a socket, not a regular file";
  if (info.isCharDevice || info.isBlockDevice) return "a device, not a regular file";
  return "not a regular file";
}
