/**
 * Turns no Stop answered for (README "Where runs are stored"; docs/design.md "Turn gate"): a session
 * whose last Stop blocked, or whose turn's work no Stop answered for yet, keeps its turn record and
 * anchor whatever their age. Without them a resumed session's next prompt would start a fresh
 * baseline on top of the work its Stop blocked, and the Stop would pass work no model approved.
 * `review-gate prune` and the anchors' own daily pruning ask here (the session records' own pruning
 * asks lib/store/sessions.ts `unansweredReason` directly).
 *
 * @module
 */
import { join } from "../base/path.ts";
import { openSealed } from "./sealed.ts";
import { openSessionFile, unansweredReason } from "./sessions.ts";
import { stateDir } from "./state.ts";

/**
 * Why the session record at `path` must stay, or `null` (answered for, absent, or not verified: a
 * record that does not verify already reads as absent).
 *
 * @param path a `sessions/<name>.json` file, named as its writer named it
 * @param env where the user's key is (default the process's environment)
 */
export async function unansweredRecord(
  path: string,
  env?: Record<string, string | undefined>,
): Promise<string | null> {
  const read = await openSessionFile(path, env);
  return read.kind === "ok" ? unansweredReason(read.state) : null;
}

/**
 * Why the anchor at `path` must stay, or `null`: its session's record — in `state` when given (the
 * repository being pruned), else in the repository the anchor names — is one no Stop answered for.
 * The anchor's repository is found from its root's `.git` (a folder, or a worktree's `gitdir:` file
 * and its `commondir`), read as plain files; one not found counts as answered.
 *
 * @param path an `anchors/<name>.json` file
 * @param at the repository state dir being pruned (or `null`), and where the user's key is
 */
export async function unansweredAnchor(
  path: string,
  at: { state: string | null; env?: Record<string, string | undefined> },
): Promise<string | null> {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (at.state !== null) {
    const here = await unansweredRecord(join(at.state, "sessions", name), at.env);
    if (here !== null) return here;
  }
  const text = await Deno.readTextFile(path).catch(() => null);
  if (text === null) return null;
  const opened = await openSealed(text, `anchor ${path}`, at.env);
  const root = opened.ok ? (opened.value as { root?: unknown } | null)?.root : undefined;
  if (typeof root !== "string" || !root.startsWith("/")) return null;
  const common = await commonDirOf(root);
  if (common === null) return null;
  const state = stateDir(common);
  if (state === at.state) return null;
  return await unansweredRecord(join(state, "sessions", name), at.env);
}

/** The git common dir of the worktree at `root`, from its `.git` alone; `null` when not found. */
async function commonDirOf(root: string): Promise<string | null> {
  const dotGit = join(root, ".git");
  const info = await Deno.lstat(dotGit).catch(() => null);
  if (info?.isDirectory) return dotGit;
  if (!info?.isFile) return null;
  const line = (await Deno.readTextFile(dotGit).catch(() => "")).split("\n")[0];
  if (!line.startsWith("gitdir: ")) return null;
  const gitdir = line.slice("gitdir: ".length).trim();
  const dir = gitdir.startsWith("/") ? gitdir : join(root, gitdir);
  const common = (await Deno.readTextFile(join(dir, "commondir")).catch(() => "")).trim();
  if (common === "") return dir;
  return common.startsWith("/") ? common : join(dir, common);
}
