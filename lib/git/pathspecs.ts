/**
 * The paths `review PATH…` narrows a review to, as `git diff -- PATH…` takes them: each relative to
 * the directory review-gate runs in (an absolute path is taken as it is), turned into a pathspec
 * relative to the repository's root, which is where review-gate runs git (README "Usage": a review
 * narrowed to paths). A glob (`src/*.ts`, `'*.md'`) matches as git's pathspec would. Pathspec
 * magic (`:(exclude)…`, `:/`) is refused rather than guessed at, and so is a path outside the
 * repository.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { isAbsolute, relative, resolve } from "../base/path.ts";
import { resolvePath } from "../base/resolve_path.ts";

/**
 * A change's label when it is narrowed to paths: `working tree, narrowed to src/a.ts, lib`, so
 * every output that names the change says what of it was reviewed.
 *
 * @param label the target's own label
 * @param paths the repository-relative pathspecs, at least one
 */
export function narrowedLabel(label: string, paths: readonly string[]): string {
  return `${label}, narrowed to ${paths.join(", ")}`;
}

/**
 * Repository-relative pathspecs for the paths a user gave.
 *
 * @param root the repository's worktree root (absolute, resolved: lib/git/repo.ts)
 * @param cwd the directory the paths are relative to (absolute)
 * @param paths the paths as typed, at least one
 * @returns one pathspec per path, in the order given, duplicates dropped; `.` for the root itself
 * @throws {UsageError} an empty path, pathspec magic (a leading `:`), or a path outside `root`
 */
export async function repoPathspecs(
  root: string,
  cwd: string,
  paths: readonly string[],
): Promise<string[]> {
  const base = await resolvePath(cwd);
  const out: string[] = [];
  for (const path of paths) {
    if (path === "") throw new UsageError("An empty path cannot narrow a review: name a path");
    if (path.startsWith(":")) {
      throw new UsageError(
        `Pathspec magic is not supported: "${path}" (name files, directories or globs)`,
      );
    }
    // resolve() keeps glob characters as they are: only "." and ".." segments are folded
    const absolute = isAbsolute(path) ? resolve(path) : resolve(base, path);
    const inside = relative(root, await resolvePathPrefix(absolute));
    if (inside === ".." || inside.startsWith("../") || isAbsolute(inside)) {
      throw new UsageError(`"${path}" is outside the repository at "${root}"`);
    }
    const spec = inside === "" ? "." : inside;
    if (!out.includes(spec)) out.push(spec);
  }
  return out;
}

/**
 * A path with the symlinks of the directories above it resolved (macOS `/tmp` is `/private/tmp`):
 * the directories before its last segment, or before its first glob segment, are resolved and the
 * rest kept as typed — a symlink named by the path is matched as itself, as git does.
 */
async function resolvePathPrefix(absolute: string): Promise<string> {
  if (absolute === "/") return absolute;
  const segments = absolute.split("/");
  const glob = segments.findIndex((s) => /[*?[]/.test(s));
  const cut = glob === -1 ? segments.length - 1 : glob;
  const head = segments.slice(0, cut).join("/") || "/";
  return [await resolvePath(head), ...segments.slice(cut)].join("/").replace(/^\/\//, "/");
}
