/**
 * Private temp dirs: a `0700` directory for the files a provider invocation needs (the Codex
 * schema, last-message files), removed on every exit path (docs/design.md "One structured call").
 * Live dirs are kept in a registry so `main.ts` can remove them synchronously on SIGINT/SIGTERM
 * before it exits ({@linkcode cleanupAllTempDirs}).
 *
 * @module
 */
import { StoreError } from "../base/errors.ts";

const live = new Set<string>();

/** Options for {@linkcode withPrivateTempDir}. */
export interface TempDirOptions {
  /** Directory name prefix; default "review-gate-". */
  prefix?: string;
}

/**
 * Make a private (`0700`) temp dir, run `fn` with its absolute path, then remove it recursively —
 * on success, on a throw and on an abort (an aborted call returns or throws through here too).
 *
 * @param fn work to do with the directory
 * @param options name prefix
 * @returns what `fn` returns
 * @throws whatever `fn` throws (after removing the dir)
 * @throws {StoreError} when the dir cannot be created or made private (a bad `TMPDIR`, a full disk);
 *   `fn` is then not called
 */
export async function withPrivateTempDir<T>(
  fn: (dir: string) => Promise<T>,
  options: TempDirOptions = {},
): Promise<T> {
  const dir = await makePrivateDir(options.prefix ?? "review-gate-");
  live.add(dir);
  try {
    return await fn(dir);
  } finally {
    live.delete(dir);
    await Deno.remove(dir, { recursive: true }).catch(() => removeSealed(dir));
  }
}

/**
 * Remove `dir` recursively; when that fails (a read-only copy inside: 0555 directories cannot be
 * emptied by their non-root owner), give every directory under it its owner's write bit back and
 * try again. Never throws.
 */
function removeSealed(dir: string): void {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch {
    unsealSync(dir);
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone, or not ours
    }
  }
}

/** chmod u+rwx every directory under `dir` (and `dir`), ignoring errors. */
function unsealSync(dir: string): void {
  try {
    Deno.chmodSync(dir, 0o700);
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isDirectory && !entry.isSymlink) unsealSync(`${dir}/${entry.name}`);
    }
  } catch {
    // gone
  }
}

/** `Deno.makeTempDir` + chmod 0700; a failure is a {@linkcode StoreError} and leaves no dir. */
async function makePrivateDir(prefix: string): Promise<string> {
  let dir: string;
  try {
    dir = await Deno.makeTempDir({ prefix });
  } catch (error) {
    throw new StoreError(tempRoot(), error, "a temp directory in");
  }
  try {
    await Deno.chmod(dir, 0o700);
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new StoreError(dir, error, "a temp directory");
  }
  return dir;
}

/** Where `Deno.makeTempDir` creates directories (for the error message only). */
function tempRoot(): string {
  try {
    return Deno.env.get("TMPDIR") || "/tmp";
  } catch {
    return "the system temp directory";
  }
}

/** Absolute paths of the temp dirs currently alive (for tests and diagnostics). */
export function liveTempDirs(): string[] {
  return [...live];
}

/**
 * Remove every live temp dir synchronously; errors are ignored. For signal handlers in `main.ts`,
 * which must clean up before `Deno.exit`.
 *
 * @returns how many dirs were removed
 */
export function cleanupAllTempDirs(): number {
  let removed = 0;
  for (const dir of live) {
    const existed = (() => {
      try {
        Deno.lstatSync(dir);
        return true;
      } catch {
        return false;
      }
    })();
    removeSealed(dir);
    if (existed) removed++;
    live.delete(dir);
  }
  return removed;
}
