/**
 * The `.gitattributes` marks the default excludes read (`linguist-generated`, `-diff`), for many
 * paths in one `git check-attr -z --stdin` call, read from where the rules come from: the worktree's
 * attribute files, or a tree's. git 2.39 has no `check-attr --source`, so a tree's attributes are
 * read through a temporary index holding that tree (`git read-tree` into a private temp dir, then
 * `check-attr --cached`): two git calls, the user's index never touched. With
 * `attributesFromTreeOnly` (the pre-push gate) `check-attr` runs with a private, empty git dir
 * (`GIT_DIR`) over the repository's objects (`GIT_OBJECT_DIRECTORY`): git then reads neither the
 * repository's `info/attributes` nor its `.git/config`, and `core.attributesFile` is `/dev/null`:
 * and `GIT_ATTR_NOSYSTEM=1`: only the tree's files count (the user's global and the system
 * attributes files are not what the remote has, and an agent running as the user can write the
 * first mid-turn).
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import { git } from "../git/git.ts";
import type { Repo } from "../git/repo.ts";
import type { PathAttributes } from "./filters.ts";
import type { RulesFrom } from "./source.ts";

const ATTRIBUTES = ["linguist-generated", "diff"];

/**
 * Read the attributes of `paths`.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param from where the attribute files are read
 * @param paths repo-relative paths
 * @returns path → its marks (every path asked for is in the map)
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function readPathAttributes(
  runner: Runner,
  repo: Repo,
  from: RulesFrom,
  paths: readonly string[],
): Promise<Map<string, PathAttributes>> {
  if (paths.length === 0) return new Map();
  const stdin = paths.join("\0") + "\0";
  const args = ["check-attr", "-z", "--stdin", ...ATTRIBUTES];
  const out = from.kind === "worktree"
    ? await git(runner, repo.root, args, { stdin })
    : await withPrivateTempDir(async (dir) => {
      const env = { GIT_INDEX_FILE: `${dir}/index` };
      await git(runner, repo.root, ["read-tree", from.tree], { env });
      const own = from.attributesFromTreeOnly ? await privateGitDir(dir, repo) : {};
      // tree only: nor the user's global attributes file, which an agent running as the user can
      // write in the middle of its turn
      const only = from.attributesFromTreeOnly ? ["-c", "core.attributesFile=/dev/null"] : [];
      return await git(runner, repo.root, [...only, "check-attr", "--cached", ...args.slice(1)], {
        env: { ...env, ...own },
        stdin,
      });
    });
  return parseCheckAttr(out, paths);
}

/**
 * An empty git dir in `dir` (a `HEAD` and `refs/`, git's minimum) over the repository's objects.
 *
 * @returns the environment that makes git use it
 */
async function privateGitDir(dir: string, repo: Repo): Promise<Record<string, string>> {
  const gitDir = `${dir}/git`;
  await Deno.mkdir(`${gitDir}/refs`, { recursive: true });
  await Deno.mkdir(`${gitDir}/objects`, { recursive: true });
  await Deno.writeTextFile(`${gitDir}/HEAD`, "ref: refs/heads/review-gate\n");
  return {
    GIT_DIR: gitDir,
    GIT_OBJECT_DIRECTORY: `${repo.commonDir}/objects`,
    GIT_ATTR_NOSYSTEM: "1",
  };
}

/**
 * Parse `git check-attr -z` output: `<path> NUL <attribute> NUL <info> NUL` per line, where info is
 * `set`, `unset`, `unspecified` or a value (git-check-attr(1) "OUTPUT").
 *
 * @param bytes git's stdout
 * @param paths the paths asked for (each gets an entry, unmarked by default)
 */
export function parseCheckAttr(
  bytes: Uint8Array,
  paths: readonly string[],
): Map<string, PathAttributes> {
  const out = new Map<string, PathAttributes>(
    paths.map((p) => [p, { generated: false, noDiff: false }]),
  );
  const tokens = new TextDecoder().decode(bytes).split("\0");
  for (let i = 0; i + 2 < tokens.length; i += 3) {
    const [path, attribute, info] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    const entry = out.get(path);
    if (!entry) continue;
    if (attribute === "linguist-generated") entry.generated = info === "set" || info === "true";
    if (attribute === "diff") entry.noDiff = info === "unset";
  }
  return out;
}
