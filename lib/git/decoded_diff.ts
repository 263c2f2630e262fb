/**
 * Text diffs of files git calls binary but that are text in another encoding (UTF-16 with a BOM,
 * see lib/git/text_encoding.ts). For each such file both blobs are read (`git cat-file
 * --batch-check`, then `--batch` in bounded batches), decoded, written as UTF-8 to a private temp
 * dir and diffed by git itself (`git diff --no-index`), so the hunks and their line numbers are
 * exactly git's: line N of the decoded text is line N of the file. The section keeps git's own
 * header (paths, modes, ids, renames) with `---`/`+++` lines added. Why git and not an in-process
 * diff: the reviewer must see the same hunks git would show, and git is already the one diff
 * engine review-gate trusts.
 *
 * Files past {@linkcode DECODE_LIMIT_BYTES}, or past {@linkcode MAX_DECODED} in one change, are not
 * read and stay "binary" (resp. "budget"): the cost stays bounded whatever the change holds.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import { git, gitFailure, runGit } from "./git.ts";
import { type DecodedText, decodeText } from "./text_encoding.ts";

/** Largest blob read to be decoded, bytes. */
export const DECODE_LIMIT_BYTES = 4 * 1024 * 1024;
/** Most files diffed after decoding in one change. */
export const MAX_DECODED = 200;
/** Most blob bytes read by one `cat-file --batch` call. */
const BATCH_BYTES = 16 * 1024 * 1024;
/** `git diff --no-index` calls at once. */
const PARALLEL = 4;

/** A file git's patch shows as binary. */
export interface BinaryFile {
  /** Paths as in the listing (the old path only for renames and copies). */
  path: string;
  oldPath?: string;
  /** Blob ids of both sides; `null` for an absent side (added, deleted). */
  oldId: string | null;
  newId: string | null;
  /** git's section header for the file, up to (not including) its `Binary files` line. */
  header: string;
}

/** What became of a binary file. */
export type DecodedDiff =
  | {
    ok: true;
    /** The section text: git's header, `---`/`+++`, the hunks of the decoded texts. */
    section: string;
    /** "UTF-16LE", or "UTF-8 → UTF-16LE" when the two sides differ. */
    encoding: string;
    crlf: boolean;
  }
  | { ok: false; reason: "binary" | "undecodable" | "budget"; bytes: number };

/**
 * Try to show each binary file as text.
 *
 * @param runner the subprocess seam
 * @param root repository root (where the blobs live)
 * @param files binary files of the change
 * @returns one result per file, in order; `bytes` of a file left out is its size (the larger side)
 * @throws {import("../base/errors.ts").GitError} when git fails to read the objects
 * @throws {import("../base/errors.ts").StoreError} when the temp dir cannot be created
 */
export async function decodeBinaryDiffs(
  runner: Runner,
  root: string,
  files: readonly BinaryFile[],
): Promise<DecodedDiff[]> {
  if (files.length === 0) return [];
  const ids = [...new Set(files.flatMap((f) => [f.oldId, f.newId]).filter((x) => x !== null))];
  const sizes = await blobSizes(runner, root, ids);
  const size = (id: string | null) => (id === null ? 0 : sizes.get(id) ?? 0);
  const readable = (id: string | null) => id === null || sizes.has(id);
  const wanted = files.map((f, i) =>
    i < MAX_DECODED && readable(f.oldId) && readable(f.newId) &&
    Math.max(size(f.oldId), size(f.newId)) <= DECODE_LIMIT_BYTES
  );
  const blobs = await readBlobs(
    runner,
    root,
    [...new Set(files.flatMap((f, i) => (wanted[i] ? [f.oldId, f.newId] : [])))]
      .filter((x): x is string => x !== null),
    sizes,
  );
  const results: (DecodedDiff | undefined)[] = files.map((f, i) => {
    const bytes = Math.max(size(f.oldId), size(f.newId));
    if (!wanted[i]) {
      return { ok: false, reason: i >= MAX_DECODED ? "budget" : "binary", bytes };
    }
    return undefined;
  });
  const todo = files.flatMap((_, i) => (results[i] ? [] : [i]));
  await withPrivateTempDir(async (dir) => {
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const i = todo[next++];
        const f = files[i];
        results[i] = await decodeOne(runner, dir, i, f, {
          old: f.oldId === null ? empty : decodeText(blobs.get(f.oldId)!),
          new: f.newId === null ? empty : decodeText(blobs.get(f.newId)!),
          bytes: Math.max(size(f.oldId), size(f.newId)),
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, todo.length) }, worker));
  }, { prefix: "review-gate-decode-" });
  return results as DecodedDiff[];
}

const empty: DecodedText = { ok: true, text: "", encoding: "", crlf: false };

async function decodeOne(
  runner: Runner,
  dir: string,
  i: number,
  file: BinaryFile,
  sides: { old: DecodedText; new: DecodedText; bytes: number },
): Promise<DecodedDiff> {
  const { old, new: now } = sides;
  if (!old.ok || !now.ok) {
    // plain binary on either side (no BOM, a NUL byte) wins: a BOM-like start is then chance
    const binary = (!old.ok && old.reason === "binary") || (!now.ok && now.reason === "binary");
    return { ok: false, reason: binary ? "binary" : "undecodable", bytes: sides.bytes };
  }
  const names = [old.encoding, now.encoding].filter((e) => e !== "");
  const encoding = names.length === 2 && names[0] !== names[1]
    ? `${names[0]} → ${names[1]}`
    : names[0] ?? "UTF-8";
  const crlf = old.crlf || now.crlf;
  if (old.text === now.text) return { ok: true, section: file.header, encoding, crlf };
  const a = file.oldId === null ? "/dev/null" : `${dir}/${i}-a`;
  const b = file.newId === null ? "/dev/null" : `${dir}/${i}-b`;
  if (file.oldId !== null) await Deno.writeTextFile(a, old.text);
  if (file.newId !== null) await Deno.writeTextFile(b, now.text);
  const args = [
    "diff",
    "--no-index",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--unified=3",
    "--",
    a,
    b,
  ];
  const result = await runGit(runner, dir, args);
  if (result.code !== 0 && result.code !== 1) throw gitFailure(args, result);
  const text = new TextDecoder().decode(result.stdout);
  const hunks = text.startsWith("@@") ? 0 : text.indexOf("\n@@") + 1;
  const minus = file.oldId === null ? "/dev/null" : quotePath(`a/${file.oldPath ?? file.path}`);
  const plus = file.newId === null ? "/dev/null" : quotePath(`b/${file.path}`);
  const body = hunks > 0 ? text.slice(hunks) : "";
  return { ok: true, section: `${file.header}--- ${minus}\n+++ ${plus}\n${body}`, encoding, crlf };
}

/** Object id → size in bytes, from one `git cat-file --batch-check`. */
async function blobSizes(
  runner: Runner,
  root: string,
  ids: string[],
): Promise<Map<string, number>> {
  const out = await git(runner, root, ["cat-file", "--batch-check"], { stdin: ids.join("\n") });
  const sizes = new Map<string, number>();
  for (const line of new TextDecoder().decode(out).split("\n")) {
    const [id, type, size] = line.split(" ");
    if (type === "blob") sizes.set(id, Number(size));
  }
  return sizes;
}

/** Blob contents, read with `git cat-file --batch` in batches of at most {@linkcode BATCH_BYTES}. */
async function readBlobs(
  runner: Runner,
  root: string,
  ids: string[],
  sizes: Map<string, number>,
): Promise<Map<string, Uint8Array>> {
  const blobs = new Map<string, Uint8Array>();
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const out = await git(runner, root, ["cat-file", "--batch"], {
      stdin: batch.join("\n"),
      maxOutputBytes: bytes + batch.length * 200 + 1024,
    });
    parseBatch(out, blobs);
    batch = [];
    bytes = 0;
  };
  for (const id of ids) {
    const size = sizes.get(id) ?? 0;
    if (bytes + size > BATCH_BYTES) await flush();
    batch.push(id);
    bytes += size;
  }
  await flush();
  return blobs;
}

/** Parse `<id> <type> <size>\n<content>\n` records (git-cat-file(1) "BATCH OUTPUT"). */
function parseBatch(out: Uint8Array, into: Map<string, Uint8Array>): void {
  const decoder = new TextDecoder();
  let pos = 0;
  while (pos < out.length) {
    const nl = out.indexOf(0x0a, pos);
    if (nl < 0) return;
    const [id, type, size] = decoder.decode(out.subarray(pos, nl)).split(" ");
    if (type === "missing" || size === undefined) {
      pos = nl + 1;
      continue;
    }
    const start = nl + 1;
    const end = start + Number(size);
    into.set(id, out.subarray(start, end));
    pos = end + 1;
  }
}

/** git's C-quoting of a name in a patch header, when it needs any (else the name as is). */
export function quotePath(name: string): string {
  let quoted = "";
  let needed = false;
  for (const c of name) {
    const code = c.charCodeAt(0);
    const escape = ESCAPES[c] ??
      (code < 0x20 || code === 0x7f ? `\\${code.toString(8).padStart(3, "0")}` : undefined);
    if (escape !== undefined) needed = true;
    quoted += escape ?? c;
  }
  return needed ? `"${quoted}"` : name;
}

const ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  '"': '\\"',
  "\\": "\\\\",
};
