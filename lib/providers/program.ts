/**
 * Where a provider's program is and what it is: the file a run starts (a `REVIEW_GATE_<NAME>_BIN`
 * override, or the default name looked up on `PATH`, symlinks resolved) and a digest of its
 * content. The turn gate records both at the turn's start (lib/gates/turn/guard_files.ts) and the
 * verdict cache keys by the digest (lib/review/identity.ts), so a reviewer CLI rewritten mid-turn is
 * a gate-control change and a verdict of another program's content is never reused. Light to
 * import: no adapters.
 *
 * A program of at most {@linkcode WHOLE_PROGRAM_BYTES} is digested whole. A larger one (a native
 * `claude` build is some 200 MB) is digested by its size, inode, change time and its first and last
 * {@linkcode EDGE_BYTES}: hashing 200 MB at every prompt and every stop would cost more than the
 * review, and the change time, which a process cannot set back, moves on any write to the middle.
 *
 * @module
 */
import { delimiter, isAbsolute, join, resolve } from "../base/path.ts";
import { sha256Hex } from "../base/sha256.ts";

/** Largest program digested whole, bytes. */
export const WHOLE_PROGRAM_BYTES = 4 * 1024 * 1024;
/** Bytes digested at each end of a larger program. */
export const EDGE_BYTES = 1024 * 1024;

/**
 * The file a provider's run starts, resolved as the runner would: the override (relative to `cwd`
 * when it holds a `/`, else looked up on `PATH`), or the default name on `PATH`; symlinks resolved.
 *
 * @param name the provider's name (`claude`, `codex`, `vibe`: also its default program name)
 * @param env the environment (`PATH`, `REVIEW_GATE_<NAME>_BIN`)
 * @param cwd directory a relative override is taken from (default: the process cwd)
 * @returns the absolute real path, or `null` when no such file is found
 */
export function providerProgram(
  name: string,
  env: Record<string, string | undefined>,
  cwd?: string,
): string | null {
  const override = env[`REVIEW_GATE_${name.toUpperCase()}_BIN`]?.trim();
  return programPath(override || name, env, cwd);
}

/**
 * The file a program name or path starts: a path with a `/` (relative to `cwd`), else the name on
 * `PATH`; symlinks resolved.
 *
 * @returns the absolute real path, or `null` when no such file is found
 */
export function programPath(
  bin: string,
  env: Record<string, string | undefined>,
  cwd?: string,
): string | null {
  if (bin.includes("/")) return realFile(isAbsolute(bin) ? bin : resolve(cwd ?? Deno.cwd(), bin));
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue;
    const found = realFile(join(dir, bin));
    if (found) return found;
  }
  return null;
}

function realFile(path: string): string | null {
  try {
    const real = Deno.realPathSync(path);
    return Deno.statSync(real).isFile ? real : null;
  } catch {
    return null;
  }
}

/**
 * A digest of a program file's content (whole, or for a large one its size, inode, change time and
 * ends, as the module says).
 *
 * @param path the file
 * @returns sha256 hex, or `"-"` when it cannot be read
 */
export async function programDigest(path: string): Promise<string> {
  let file: Deno.FsFile | null = null;
  try {
    file = await Deno.open(path, { read: true });
    const info = await file.stat();
    if (!info.isFile) return "-";
    // a part of a multi-part review asks again: the same file, unchanged since, is not read twice
    // (any write changes its change time; size, inode and both times are compared)
    const seen = `${path}\0${info.size}:${info.ino ?? 0}:${info.mtime?.getTime() ?? 0}:${
      info.ctime?.getTime() ?? 0
    }`;
    const known = DIGESTS.get(seen);
    if (known) return known;
    const digest = await contentDigest(file, info);
    DIGESTS.set(seen, digest);
    return digest;
  } catch {
    return "-";
  } finally {
    file?.close();
  }
}

/** Digests computed by this process, by path and stat (see {@linkcode programDigest}). */
const DIGESTS = new Map<string, string>();

async function contentDigest(file: Deno.FsFile, info: Deno.FileInfo): Promise<string> {
  if (info.size <= WHOLE_PROGRAM_BYTES) return await sha256Hex(await readAll(file, info.size));
  const head = await readAll(file, EDGE_BYTES);
  await file.seek(info.size - EDGE_BYTES, Deno.SeekMode.Start);
  const tail = await readAll(file, EDGE_BYTES);
  const stat = `${info.size}:${info.ino ?? 0}:${info.ctime?.getTime() ?? 0}`;
  return await sha256Hex(`large ${stat} ${await sha256Hex(head)} ${await sha256Hex(tail)}`);
}

async function readAll(file: Deno.FsFile, size: number): Promise<Uint8Array> {
  const buf = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const n = await file.read(buf.subarray(at));
    if (n === null) break;
    at += n;
  }
  return buf.subarray(0, at);
}

/**
 * The identity of the program a provider's run starts, for a verdict's cache key.
 *
 * @param bin the binary the run uses (lib/providers/registry.ts `resolveBinary`)
 * @param env the environment (`PATH`)
 * @param cwd directory a relative path is taken from
 * @returns `"<real path>#<digest>"`, or `"missing"`
 */
export async function programIdentity(
  bin: string,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<string> {
  const path = programPath(bin, env, cwd);
  return path ? `${path}#${(await programDigest(path)).slice(0, 16)}` : "missing";
}
