/**
 * Where the team's rules are read from ({@linkcode RulesFrom}), and reading rule files there: the
 * worktree on disk (a local review of your own work), or a git tree — the base commit of a pull
 * request in CI, the turn's baseline in the Stop gates, what the remote already has for a push,
 * `review --rules-from REF` — so the party
 * under review cannot rewrite the rules it is judged by. Files of a tree are read in one
 * `git cat-file --batch` call; worktree files must resolve inside the repository.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { git, gitText } from "../git/git.ts";
import type { Repo } from "../git/repo.ts";
import { UsageError } from "../base/errors.ts";

/** Where rules are read from. */
export type RulesFrom =
  | { kind: "worktree" }
  | {
    kind: "tree";
    /** Tree id (hex) the rule files are read from. */
    tree: string;
    /** What it is, for people: `base a1b2c3d`, `turn baseline`, `main`. */
    label: string;
    /**
     * Read `.gitattributes` marks from this tree alone: not from the repository's own
     * `info/attributes` or a `core.attributesFile` its `.git/config` names, which the change's
     * author can write (the pre-push gate). The user's global attributes file still counts.
     */
    attributesFromTreeOnly?: boolean;
  };

/** The worktree, the default of a local review. */
export const FROM_WORKTREE: RulesFrom = { kind: "worktree" };

/** Largest rule file read, in bytes; a larger one is read up to this size and marked cut. */
export const MAX_RULE_FILE_BYTES = 256 * 1024;

/** One rule file's text and whether it was longer than {@linkcode MAX_RULE_FILE_BYTES}. */
export interface RuleFileText {
  text: string;
  /** Size in bytes of the whole file. */
  bytes: number;
  truncated: boolean;
}

/**
 * Resolve a revision to the tree its rules are read from.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param ref any revision (`main`, `origin/main`, a commit or tree id)
 * @param label what to call it; default the ref and the short id
 * @throws {UsageError} when the revision does not name a commit or tree
 */
export async function resolveRulesFrom(
  runner: Runner,
  repo: Repo,
  ref: string,
  label?: string,
): Promise<RulesFrom> {
  let tree: string;
  try {
    tree = await gitText(runner, repo.root, ["rev-parse", "--verify", "-q", `${ref}^{tree}`]);
  } catch (cause) {
    throw new UsageError(
      `Cannot read rules from "${ref}": it is not a commit or tree of this repository`,
      { cause },
    );
  }
  return { kind: "tree", tree, label: label ?? ref };
}

/**
 * Read rule files by repo-relative path.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param from where to read
 * @param paths repo-relative paths (paths with a newline or `..` are skipped)
 * @returns the files that exist, by path (on disk: regular files inside the repository; in a tree:
 *   blobs — a symlink there reads as the text of its target path)
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function readRuleFiles(
  runner: Runner,
  repo: Repo,
  from: RulesFrom,
  paths: readonly string[],
): Promise<Map<string, RuleFileText>> {
  const wanted = [...new Set(paths)].filter((p) =>
    p !== "" && !p.includes("\n") && !p.startsWith("/") && !p.split("/").includes("..")
  );
  if (wanted.length === 0) return new Map();
  return from.kind === "tree"
    ? await readFromTree(runner, repo, from.tree, wanted)
    : await readFromDisk(repo.root, wanted);
}

function ruleText(bytes: Uint8Array, size: number): RuleFileText {
  const cut = bytes.length > MAX_RULE_FILE_BYTES;
  const text = new TextDecoder().decode(cut ? bytes.subarray(0, MAX_RULE_FILE_BYTES) : bytes)
    .replace(/^\uFEFF/, "");
  return { text, bytes: size, truncated: cut };
}

async function readFromDisk(root: string, paths: string[]): Promise<Map<string, RuleFileText>> {
  const out = new Map<string, RuleFileText>();
  const realRoot = await Deno.realPath(root);
  await Promise.all(paths.map(async (path) => {
    try {
      const real = await Deno.realPath(`${root}/${path}`);
      if (!real.startsWith(`${realRoot}/`)) return;
      const info = await Deno.stat(real);
      if (!info.isFile) return;
      const file = await Deno.open(real);
      try {
        const buffer = new Uint8Array(Math.min(info.size, MAX_RULE_FILE_BYTES + 1));
        let read = 0;
        while (read < buffer.length) {
          const n = await file.read(buffer.subarray(read));
          if (n === null) break;
          read += n;
        }
        out.set(path, ruleText(buffer.subarray(0, read), info.size));
      } finally {
        file.close();
      }
    } catch {
      // absent, unreadable, a directory: no rule file there
    }
  }));
  return out;
}

/**
 * `git cat-file --batch` with one `<tree>:<path>` per line; the answer per line is
 * `<oid> SP <type> SP <size> LF <contents> LF` or `<name> SP missing LF` (git-cat-file(1) "BATCH
 * OUTPUT").
 */
async function readFromTree(
  runner: Runner,
  repo: Repo,
  tree: string,
  paths: string[],
): Promise<Map<string, RuleFileText>> {
  const stdin = paths.map((p) => `${tree}:${p}\n`).join("");
  const bytes = await git(runner, repo.root, ["cat-file", "--batch"], { stdin });
  const out = new Map<string, RuleFileText>();
  const decoder = new TextDecoder();
  let pos = 0;
  for (const path of paths) {
    const nl = bytes.indexOf(0x0a, pos);
    if (nl < 0) break;
    const header = decoder.decode(bytes.subarray(pos, nl)).split(" ");
    pos = nl + 1;
    if (header.length !== 3) continue; // "<name> missing" / "ambiguous"
    const size = Number(header[2]);
    const body = bytes.subarray(pos, pos + size);
    pos += size + 1;
    if (header[1] === "blob") out.set(path, ruleText(body, size));
  }
  return out;
}
