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
export const TOTAL_BYTES = 128 * 1024 * 1024;
const MIB = 1024 * 1024;

/**
 * Read blobs for the content checks.
 *
 * @param runner the subprocess seam
 * @param repo the repository holding the blobs
 * @param ids blob ids (hex; repeats are read once)
 * @param bounds bytes per file and per change (default {@linkcode MAX_CHECKED_BYTES} and
 *   {@linkcode TOTAL_BYTES})
 * @returns id → its bytes, or why it was not read (one phrase)
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function readBlobsForChecks(
  runner: Runner,
  repo: Repo,
  ids: readonly string[],
  bounds: { file: number; total: number } = { file: MAX_CHECKED_BYTES, total: TOTAL_BYTES },
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
    if (bytes > bounds.file) {
      const why = `${amount(bytes)}; at most ${amount(bounds.file)} are read`;
      out.set(id, `it is too large to check its content (${why})`);
    } else if (total + bytes > bounds.total) {
      out.set(id, `the content checks of this change already read ${amount(bounds.total)}`);
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

/** Bytes for people: `3000 B`, `16 MiB`, `20.5 MiB`. */
function amount(bytes: number): string {
  return bytes < MIB ? `${bytes} B` : `${Math.round(bytes / MIB * 10) / 10} MiB`;
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
