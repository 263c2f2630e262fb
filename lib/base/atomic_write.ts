/**
 * Atomic file writes, shared by the store, the installers and `gate enable|disable`: the data goes
 * to a temp file beside the target (same directory, so the rename stays on one file system), gets
 * its mode, and is renamed over the target — a reader sees the old content or the new, never a
 * half-written file. A symlink at the path is followed by default — its target is written and the
 * link kept — because the files written so are the user's own (a dotfiles manager links
 * `~/.claude/settings.json` or a hook into a repository of its own: replacing the link would
 * silently cut it loose) or review-gate's state. A file whose path the change under review may
 * control — a `--output` file inside the repository, a shard's result — is written with
 * `replaceSymlink`: a link there is replaced by the file itself, its target never touched (a pull
 * request committing `review.md -> ~/.bashrc` must not make CI overwrite `~/.bashrc`).
 * An existing target keeps its permission bits (unless a mode is forced); a new file gets the
 * given mode. No write ever leaves a world-writable file. Temp names start with "." and end in
 * ".tmp" so directory readers can skip them.
 *
 * @module
 */
import { basename, dirname } from "./path.ts";

/** Options of {@linkcode writeFileAtomic} and {@linkcode stageFile}. */
export interface AtomicWriteOptions {
  /** Permission bits of a new file, e.g. `0o600`; default `0o644`. An existing target keeps its. */
  newFileMode?: number;
  /** Permission bits to set whether or not the target exists (the installers' planned mode). */
  mode?: number;
  /**
   * A symlink at the path is replaced by the file (renamed onto the link's own path, so its target
   * is neither written nor read), which then gets `newFileMode`; default: the link is followed.
   */
  replaceSymlink?: boolean;
}

/** What a file is written from: text (UTF-8), bytes, or text in pieces, in order. */
export type FileData = string | Uint8Array | Iterable<string>;

/** A temp file written beside its target, ready to be renamed over it. */
export interface StagedFile {
  /** The temp file (in the target's directory). */
  temp: string;
  /** The real file to replace: `path`, or a symlink's resolved target. */
  target: string;
}

/**
 * Write `data` to a temp file beside the file `path` names (a symlink's target, unless
 * `replaceSymlink`), with the mode the file will have, without renaming it yet. Rename with
 * `Deno.rename(temp, target)`.
 *
 * @param path the final path, or a symlink to it (its directory must exist)
 * @param data text (UTF-8), bytes, or text in pieces (lib/base/json_pieces.ts), written one piece
 *   at a time so the whole text is never one buffer
 * @param options new-file mode (default 0o644) or a forced mode (the world-writable bit is
 *   dropped); whether a symlink at `path` is replaced rather than followed
 * @returns the temp and target paths
 * @throws {Deno.errors.NotFound} for a dangling symlink or a missing directory, and other
 *   file-system errors as they come; no temp file is left behind
 */
export async function stageFile(
  path: string,
  data: FileData,
  options: AtomicWriteOptions = {},
): Promise<StagedFile> {
  const link = (await lstatOrNull(path))?.isSymlink === true;
  const target = link && !options.replaceSymlink ? await Deno.realPath(path) : path;
  const existing = options.mode === undefined && !(link && options.replaceSymlink)
    ? await lstatOrNull(target)
    : null;
  const mode = options.mode ?? (existing?.mode ?? options.newFileMode ?? 0o644);
  const temp = await Deno.makeTempFile({
    dir: dirname(target),
    prefix: `.${basename(target)}.`,
    suffix: ".tmp",
  });
  try {
    if (typeof data === "string") await Deno.writeTextFile(temp, data);
    else if (data instanceof Uint8Array) await Deno.writeFile(temp, data);
    else await writePieces(temp, data);
    await Deno.chmod(temp, mode & 0o7775);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return { temp, target };
}

/**
 * Write `data` to `path` atomically: {@linkcode stageFile}, then rename over the target.
 *
 * @param path the final path, or a symlink to it (kept and its target written; replaced by the file
 *   with `replaceSymlink`)
 * @param data text (UTF-8), bytes, or text in pieces ({@linkcode stageFile})
 * @param options new-file mode (default 0o644) or a forced mode, never world-writable; whether a
 *   symlink at `path` is replaced
 * @throws {Deno.errors.NotFound} for a dangling symlink or a missing directory, and other
 *   file-system errors as they come; no temp file is left behind
 */
export async function writeFileAtomic(
  path: string,
  data: FileData,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { temp, target } = await stageFile(path, data, options);
  try {
    await Deno.rename(temp, target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Write text pieces to `path` (created or truncated), each encoded as UTF-8 into one reused
 * buffer: the text is never whole in memory.
 *
 * @param path the file
 * @param pieces the text, in order
 * @throws Deno.errors from the file system
 */
export async function writePieces(path: string, pieces: Iterable<string>): Promise<void> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  let buffer = new Uint8Array(64 * 1024);
  for (const piece of pieces) {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (buffer.length < piece.length * 3) buffer = new Uint8Array(piece.length * 3);
    const { written } = encoder.encodeInto(piece, buffer);
    for (let at = 0; at < written;) at += await file.write(buffer.subarray(at, written));
  }
}

const encoder = new TextEncoder();

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
