/**
 * Read the blobs the defaults' content checks need (lib/rules/content_checks.ts), by id, bounded:
 * one `git cat-file --batch-check` gives every size, then `git cat-file --batch` reads the blobs no
 * larger than {@linkcode MAX_CHECKED_BYTES}, in calls of at most {@linkcode BATCH_BYTES}, and at
 * most {@linkcode TOTAL_BYTES} per change. A blob past a bound is not read: its file is reviewed
 * (the caller names why). Formats: git-cat-file(1) "BATCH OUTPUT".
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { git } from "../git/git.ts";
import type { Repo } from "../git/repo.ts";
import { MAX_CHECKED_BYTES } from "./content_checks.ts";

/** Blob bytes one `cat-file --batch` call reads at most (32 MiB). */
const BATCH_BYTES = 32 * 1024 * 1024;
/** Blob bytes read for the checks of one change at most (128 MiB). */
const TOTAL_BYTES = 128 * 1024 * 1024;
const MIB = 1024 * 1024;

/**
 * Read blobs for the content checks.
 *
 * @param runner the subprocess seam
 * @param repo the repository holding the blobs
 * @param ids blob ids (hex; repeats are read once)
 * @returns id → its bytes, or why it was not read (one phrase)
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function readBlobsForChecks(
  runner: Runner,
  repo: Repo,
  ids: readonly string[],
): Promise<Map<string, Uint8Array | string>> {
  const out = new Map<string, Uint8Array | string>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return out;
  const listing = await git(runner, repo.root, [
    "cat-file",
    "--batch-check=%(objectname) %(objecttype) %(objectsize)",
  ], { stdin: unique.join("\n") + "\n", isolated: true });
  const wanted: { id: string; size: number }[] = [];
  let total = 0;
  for (const line of new TextDecoder().decode(listing).split("\n")) {
    const [id, type, size] = line.split(" ");
    if (!id || type !== "blob") continue;
    const bytes = Number(size);
    if (bytes > MAX_CHECKED_BYTES) {
      out.set(
        id,
        `it is too large to check its content (${mib(bytes)}; at most ${
          mib(MAX_CHECKED_BYTES)
        } are read)`,
      );
    } else if (total + bytes > TOTAL_BYTES) {
      out.set(id, `the content checks of this change already read ${mib(TOTAL_BYTES)}`);
    } else {
      total += bytes;
      wanted.push({ id, size: bytes });
    }
  }
  for (const batch of batches(wanted)) {
    const size = batch.reduce((n, b) => n + b.size, 0);
    const bytes = await git(runner, repo.root, ["cat-file", "--batch"], {
      stdin: batch.map((b) => b.id).join("\n") + "\n",
      isolated: true,
      maxOutputBytes: size + batch.length * 128 + 1024,
    });
    parseBatch(bytes, out);
  }
  return out;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / MIB * 10) / 10} MiB`;
}

function batches<T extends { size: number }>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length > 0 && bytes + item.size > BATCH_BYTES) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Parse `<id> SP <type> SP <size> LF <content> LF` records into `out` (id → content). */
export function parseBatch(bytes: Uint8Array, out: Map<string, Uint8Array | string>): void {
  const decoder = new TextDecoder();
  let at = 0;
  while (at < bytes.length) {
    const newline = bytes.indexOf(0x0a, at);
    if (newline < 0) return;
    const [id, type, size] = decoder.decode(bytes.subarray(at, newline)).split(" ");
    at = newline + 1;
    if (type === "missing" || size === undefined) continue;
    const length = Number(size);
    out.set(id, bytes.slice(at, at + length));
    at += length + 1;
  }
}
