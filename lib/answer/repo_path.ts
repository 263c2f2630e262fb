/**
 * Normalise a file path from a model's answer to a repo-relative POSIX path. Models write
 * `./src/a.ts`, `b/src/a.ts` (diff prefixes) or `/abs/repo/src/a.ts`; findings are stored
 * repo-relative. Pure: the caller decides whether `a/`/`b/` is a diff prefix (see
 * `review_coherence.ts`).
 *
 * @module
 */

/** Outcome of normalising one path: the path and what was done, or why it is refused. */
export type RepoPathResult =
  | { ok: true; path: string; changes: string[] }
  | { ok: false; problem: string };

/**
 * Normalise a path against the repository root: strip the absolute `root + "/"` prefix, leading
 * `./`, repeated slashes and `.` segments, resolve `..` segments.
 *
 * @param path the path as the model wrote it
 * @param root absolute repository root, no trailing slash
 * @returns the repo-relative path and a list of what changed (empty when nothing did), or a
 *   problem when the path is empty, absolute outside the repository, or escapes it with `..`
 */
export function normaliseRepoPath(path: string, root: string): RepoPathResult {
  const changes: string[] = [];
  let rest = path.trim();
  if (rest !== path) changes.push("trimmed whitespace");
  if (rest.startsWith("/")) {
    const prefix = root.endsWith("/") ? root : root + "/";
    if (!rest.startsWith(prefix)) {
      return {
        ok: false,
        problem:
          `"${path}" is an absolute path outside the repository: use a path relative to the repository root`,
      };
    }
    rest = rest.slice(prefix.length);
    changes.push(`stripped the repository root "${prefix}"`);
  }
  if (/^[A-Za-z]:[\\/]/.test(rest)) {
    return {
      ok: false,
      problem: `"${path}" is an absolute path: use a path relative to the repository root`,
    };
  }
  if (rest.startsWith("./")) changes.push('stripped "./"');
  const segments: string[] = [];
  for (const segment of rest.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) {
        return {
          ok: false,
          problem:
            `"${path}" points outside the repository: use a path relative to the repository root`,
        };
      }
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  const normal = segments.join("/");
  if (normal === "") {
    return { ok: false, problem: `"${path}" names no file: give the file's repo-relative path` };
  }
  if (changes.length === 0 && normal !== rest) changes.push("normalised the path");
  return { ok: true, path: normal, changes };
}

/**
 * The path without a git diff prefix (`a/` or `b/`), or `null` when it has none.
 *
 * @param path a normalised repo-relative path
 */
export function stripDiffPrefix(path: string): string | null {
  return /^[ab]\/./.test(path) ? path.slice(2) : null;
}
