/**
 * The pre-push gate under the pre-commit framework (https://pre-commit.com), pure. pre-commit reads
 * git's pre-push stdin itself and gives its hooks neither the stdin nor git's arguments: it passes
 * the first ref update it found as `PRE_COMMIT_FROM_REF` (the remote's commit, or the parent of the
 * first new one) and `PRE_COMMIT_TO_REF` (the local commit), plus `PRE_COMMIT_LOCAL_BRANCH`,
 * `PRE_COMMIT_REMOTE_BRANCH`, `PRE_COMMIT_REMOTE_NAME` and `PRE_COMMIT_REMOTE_URL` when it knows them
 * all (pre-commit `commands/hook_impl.py`, v4.6). This rebuilds the one line git would have written.
 * Only that first ref update is reviewed (pre-commit passes no other); a push of a root commit comes
 * with no range at all.
 *
 * @module
 */

/** What the gate gets under pre-commit: the stdin line and git's two arguments, or why not. */
export type PreCommitPush =
  | { kind: "push"; stdinText: string; remote: string; url: string }
  | { kind: "none"; note: string };

/**
 * Rebuild a pre-push call from pre-commit's variables.
 *
 * @param env the hook's environment
 * @returns the push, or (no `PRE_COMMIT_FROM_REF`/`PRE_COMMIT_TO_REF`) a note saying why nothing is
 *   reviewed; null when not run by pre-commit (`PRE_COMMIT` unset)
 */
export function preCommitPush(env: Record<string, string | undefined>): PreCommitPush | null {
  if (env.PRE_COMMIT !== "1") return null;
  const from = env.PRE_COMMIT_FROM_REF ?? env.PRE_COMMIT_SOURCE;
  const to = env.PRE_COMMIT_TO_REF ?? env.PRE_COMMIT_ORIGIN;
  if (!from || !to) {
    return {
      kind: "none",
      note:
        "pre-commit gave no push range (it gives none for a push of a root commit): this push was NOT reviewed; review it with review-gate review --range <from>..<to>",
    };
  }
  const local = env.PRE_COMMIT_LOCAL_BRANCH || "HEAD";
  const remoteRef = env.PRE_COMMIT_REMOTE_BRANCH || local;
  const remote = env.PRE_COMMIT_REMOTE_NAME || "origin";
  return {
    kind: "push",
    stdinText: `${local} ${to} ${remoteRef} ${from}\n`,
    remote,
    url: env.PRE_COMMIT_REMOTE_URL || remote,
  };
}
