/**
 * Fingerprint the parts of the git dir a provider could write to change what git does later
 * (for the read-only proof, docs/design.md "Read-only proof"): the config files and the files they
 * include, the hooks, `info/` (attributes, exclude, sparse-checkout), `shallow` (where history is cut
 * off), `objects/info/alternates` and `http-alternates` (other object stores git reads from) and
 * every ref. Keys name what changed the way a user reads it: "git config", "git config (worktree)",
 * ".git/hooks/pre-commit", ".git/info/exclude", ".git/shallow", "refs/heads/x".
 *
 * No git call: refs are read from the ref files (lib/git/local_refs.ts; `git for-each-ref` only
 * for a repository with the reftable backend), the hooks directory comes with the `Repo`
 * (`rev-parse --git-path hooks`, which honours core.hooksPath, only for a `Repo` that does not
 * carry it), and the files themselves are read in-process. Hook and `info/` listings are bounded
 * ({@linkcode MAX_ENTRIES} entries each, one directory level below the top).
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { includedFiles } from "./config_includes.ts";
import { gitText } from "./git.ts";
import { LOCAL_REF_PREFIXES, readLocalRefs } from "./local_refs.ts";
import type { Repo } from "./repo.ts";
import { diskSignature } from "./status_listing.ts";

/**
 * Files of the common dir that change which commits and objects git sees without touching a ref:
 * a reviewer that writes one changes what the next `log`, `diff` or push reads.
 */
const HISTORY_FILES = ["shallow", "objects/info/alternates", "objects/info/http-alternates"];

/** Most entries read from one watched directory. */
export const MAX_ENTRIES = 500;

/**
 * Collect the git-dir fingerprint.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository (git dir and common dir)
 * @param options `refs: false` leaves the refs out (a background review's proof: the agent's
 *   commits move them while it runs, and the Stop reviews what they moved)
 * @returns name → signature (config and hook files by content and mode, refs by object id)
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function gitMetaSignature(
  runner: Runner,
  repo: Repo,
  options: { refs?: boolean } = {},
): Promise<Record<string, string>> {
  const [refs, hooksDir] = await Promise.all([
    options.refs === false ? new Map<string, string>() : localRefs(runner, repo),
    repo.hooksDir ??
      gitText(runner, repo.root, ["rev-parse", "--path-format=absolute", "--git-path", "hooks"], {
        keepHooksPath: true,
      }),
  ]);
  const meta: Record<string, string> = Object.fromEntries(refs);
  const configs: [string, string][] = [
    ["git config", `${repo.commonDir}/config`],
    ["git config (worktree)", `${repo.commonDir}/config.worktree`],
  ];
  if (repo.gitDir !== repo.commonDir) {
    configs.push(["git config (this worktree)", `${repo.gitDir}/config.worktree`]);
  }
  const reads = configs.map(async ([name, path]) => {
    meta[name] = await diskSignature(path, true);
    // the files it includes (lib/git/config_includes.ts), present or not: one a reviewer creates
    // configures the user's git as much as the config itself
    for (const included of await includedFiles(path, Deno.env.get("HOME"))) {
      meta[`${name} includes ${included}`] = await diskSignature(included, true);
    }
  });
  for (const file of HISTORY_FILES) {
    reads.push(
      diskSignature(`${repo.commonDir}/${file}`, true).then((signature) => {
        meta[`.git/${file}`] = signature;
      }),
    );
  }
  reads.push(signDirectory(hooksDir, displayName(repo, hooksDir), meta));
  reads.push(signDirectory(`${repo.commonDir}/info`, ".git/info", meta));
  await Promise.all(reads);
  return meta;
}

/**
 * Local refs and tags only: remote-tracking refs move when an IDE or a cron job fetches during the
 * review, which would turn a good review into a false read-only violation. Read from the ref files
 * (lib/git/local_refs.ts); `git for-each-ref` only for a repository with another ref backend.
 */
async function localRefs(runner: Runner, repo: Repo): Promise<Map<string, string>> {
  const read = await readLocalRefs(repo.commonDir);
  if (read !== null) return read;
  const text = await gitText(runner, repo.root, [
    "for-each-ref",
    "--format=%(refname) %(objectname)",
    ...LOCAL_REF_PREFIXES,
  ]);
  const refs = new Map<string, string>();
  for (const line of text.split("\n")) {
    const space = line.lastIndexOf(" ");
    if (space > 0) refs.set(line.slice(0, space), line.slice(space + 1));
  }
  return refs;
}

/** ".git/…" for paths in the common dir, repo-relative inside the worktree, else absolute. */
function displayName(repo: Repo, path: string): string {
  if (path === repo.commonDir || path.startsWith(`${repo.commonDir}/`)) {
    return `.git${path.slice(repo.commonDir.length)}`;
  }
  if (path.startsWith(`${repo.root}/`)) return path.slice(repo.root.length + 1);
  return path;
}

/** Sign every entry of `dir` (and of its subdirectories, one level) under `label/<name>`. */
async function signDirectory(
  dir: string,
  label: string,
  meta: Record<string, string>,
  depth = 0,
): Promise<void> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (names.length >= MAX_ENTRIES) break;
      names.push(entry.name);
    }
  } catch (error) {
    meta[label] = error instanceof Deno.errors.NotFound ? "absent" : "unreadable";
    return;
  }
  meta[label] = "directory";
  await Promise.all(names.map(async (name) => {
    const path = `${dir}/${name}`;
    const signature = await diskSignature(path, true);
    if (signature === "directory" && depth < 1) {
      await signDirectory(path, `${label}/${name}`, meta, depth + 1);
    } else meta[`${label}/${name}`] = signature;
  }));
}
