/**
 * What the remote a push goes to really has (docs/design.md "Pre-push gate"; README "Gates" →
 * pre-push): the branches it advertises, asked once per push with `git ls-remote --heads <url>` —
 * the URL git is pushing to (the hook's `$2`). Remote-tracking refs are the user's local notes of what a remote
 * had at the last fetch: anything can write them (`git update-ref refs/remotes/origin/x HEAD`), and
 * a ref deleted on the remote stays until a prune. So when a push's range would rest on them, the
 * gate counts instead the commits reachable from a branch the remote advertises (`--heads`: what
 * remote-tracking refs stand for; not tags, and not other refs such as GitHub's `refs/pull/*`,
 * which hold anyone's unmerged commits); a tracking ref whose commits are not among those counts for
 * nothing.
 *
 * The call is bounded: {@linkcode LS_REMOTE_TIMEOUT_MS} (12 s: the remote has just answered git's own
 * push connection, so a healthy one answers in well under a second; a remote that hangs must not
 * hold the push past what a person waits for), no stdin, no terminal prompt (`GIT_TERMINAL_PROMPT=0`,
 * lib/git/git.ts) and in a process group of its own, so the timeout also ends the `ssh` it started.
 * It reads the repository's config like `git push` did (its `insteadOf`, `core.sshCommand`).
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { runGit, stderrTail } from "../../git/git.ts";

/** Longest wait for the remote's answer, in milliseconds (module doc). */
export const LS_REMOTE_TIMEOUT_MS = 12_000;

/** The remote's answer: the commit ids of its branches, or why it could not be asked. */
export type Advertised =
  | { ok: true; ids: string[] }
  | { ok: false; reason: string };

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Ask the remote at `url` which branches it has (one `git ls-remote --heads`).
 *
 * @param runner the subprocess seam
 * @param repo any directory inside the repository (its config applies)
 * @param url the URL or path pushed to (the hook's `$2`); a remote name works too
 * @param timeoutMs the bound, default {@linkcode LS_REMOTE_TIMEOUT_MS}
 * @returns the distinct advertised ids, or `ok: false` with a short reason
 *   when git failed, timed out or could not start; never throws for those
 */
export async function askRemote(
  runner: Runner,
  repo: string,
  url: string,
  timeoutMs = LS_REMOTE_TIMEOUT_MS,
): Promise<Advertised> {
  if (url === "") return { ok: false, reason: "git named no URL for the push" };
  const result = await runGit(runner, repo, ["ls-remote", "--heads", "--", url], {
    timeoutMs,
    processGroup: "own",
  }).catch((error: Error) => ({ error }));
  if ("error" in result) return { ok: false, reason: result.error.message };
  if (result.timedOut) {
    return { ok: false, reason: `no answer in ${Math.round(timeoutMs / 1000)} s` };
  }
  if (result.code !== 0) {
    const tail = stderrTail(result).trim().split("\n").filter(Boolean).pop();
    return {
      ok: false,
      reason: tail ? `git ls-remote: ${tail}` : `git ls-remote exited ${result.code}`,
    };
  }
  const ids = new Set<string>();
  for (const line of new TextDecoder().decode(result.stdout).split("\n")) {
    const id = line.split("\t")[0];
    if (OID.test(id)) ids.add(id);
  }
  return { ok: true, ids: [...ids] };
}

/**
 * {@linkcode askRemote}, asked at most once however often it is called (one push, many ref
 * updates).
 */
export function rememberedRemote(
  runner: Runner,
  repo: string,
  url: string,
): () => Promise<Advertised> {
  let asked: Promise<Advertised> | undefined;
  return () => asked ??= askRemote(runner, repo, url);
}

/**
 * The remote's default branch as it answers for itself: its `HEAD`, the branch that `HEAD` names
 * and that branch's tip. A loosening in the `.review-gate.json` of a push's base counts only when
 * this branch has it too (lib/gates/pre_push/default_branch.ts).
 */
export type DefaultBranch =
  | { ok: true; ref: string; id: string }
  | { ok: false; reason: string };

/**
 * Ask the remote at `url` for its default branch (one `git ls-remote --symref <url> HEAD`, bounded
 * like {@linkcode askRemote}). Only the remote's own answer counts: never a local
 * `refs/remotes/<remote>/HEAD`, which anything can write.
 *
 * @param runner the subprocess seam
 * @param repo any directory inside the repository (its config applies)
 * @param url the URL or path pushed to (the hook's `$2`)
 * @param timeoutMs the bound, default {@linkcode LS_REMOTE_TIMEOUT_MS}
 * @returns the branch and its tip, or `ok: false` with a short reason (git failed or timed out, the
 *   remote's `HEAD` is not a branch, or names one without commits); never throws for those
 */
export async function askDefaultBranch(
  runner: Runner,
  repo: string,
  url: string,
  timeoutMs = LS_REMOTE_TIMEOUT_MS,
): Promise<DefaultBranch> {
  if (url === "") return { ok: false, reason: "git named no URL for the push" };
  const result = await runGit(runner, repo, ["ls-remote", "--symref", "--", url, "HEAD"], {
    timeoutMs,
    processGroup: "own",
  }).catch((error: Error) => ({ error }));
  if ("error" in result) return { ok: false, reason: result.error.message };
  if (result.timedOut) {
    return { ok: false, reason: `no answer in ${Math.round(timeoutMs / 1000)} s` };
  }
  if (result.code !== 0) {
    const tail = stderrTail(result).trim().split("\n").filter(Boolean).pop();
    return {
      ok: false,
      reason: tail ? `git ls-remote: ${tail}` : `git ls-remote exited ${result.code}`,
    };
  }
  let ref: string | null = null;
  let id: string | null = null;
  // `ref: refs/heads/main<TAB>HEAD` then `<id><TAB>HEAD` (git-ls-remote(1) --symref); the pattern
  // also matches refs ending in /HEAD, which are not the remote's HEAD
  for (const line of new TextDecoder().decode(result.stdout).split("\n")) {
    const [left, name] = line.split("\t");
    if (name !== "HEAD") continue;
    if (left.startsWith("ref: ")) ref = left.slice("ref: ".length);
    else if (OID.test(left)) id = left;
  }
  if (ref === null || !ref.startsWith("refs/heads/")) {
    return { ok: false, reason: "the remote's HEAD names no branch" };
  }
  if (id === null) return { ok: false, reason: `the remote's ${ref} has no commit` };
  return { ok: true, ref, id };
}

/** {@linkcode askDefaultBranch}, asked at most once however often it is called (one push). */
export function rememberedDefaultBranch(
  runner: Runner,
  repo: string,
  url: string,
): () => Promise<DefaultBranch> {
  let asked: Promise<DefaultBranch> | undefined;
  return () => asked ??= askDefaultBranch(runner, repo, url);
}
