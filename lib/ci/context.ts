/**
 * Which pull or merge request a CI job reviews, read from the CI's own variables (pure: the
 * environment and the event payload in, a {@linkcode CiContext} out). GitHub Actions: the
 * `pull_request` / `pull_request_target` webhook payload at `GITHUB_EVENT_PATH` (base and head SHAs,
 * fork or not) and `GITHUB_SHA` (for `pull_request`, GitHub's test merge of head into base). GitLab
 * CI: merge request pipelines (`CI_PIPELINE_SOURCE=merge_request_event`), detached (the source
 * branch) or merged results / merge trains (a temporary merge commit), and fork merge requests
 * (source project ≠ target project). Anything else needs `--base`.
 *
 * Facts: GitHub docs "Variables" and "Events that trigger workflows"; GitLab docs "Predefined CI/CD
 * variables" and "Merge request pipelines".
 *
 * @module
 */

/** What a CI job reviews, before git has been asked anything. */
export type CiContext =
  | {
    ci: "github" | "gitlab";
    /** A pull/merge request: review `base` → `head`. */
    kind: "request";
    /** e.g. `pull request #12` or `merge request !7`. */
    label: string;
    /**
     * The base commit: on GitHub the base branch tip when the event fired, on GitLab the merge
     * request's diff base (detached) or target tip (merged results). The review starts at its merge
     * base with `head`, or at the first parent of `mergeCommit`.
     */
    base: string;
    /** The request's head commit (absent when only a merge commit is known). */
    head?: string;
    /**
     * A merge of the request into its base the CI built and checked out (GitHub's
     * `refs/pull/N/merge`, GitLab merged results): the review is its first parent → it, exactly what
     * the merge would bring.
     */
    mergeCommit?: string;
    /** `base` is already the merge base of `head` (GitLab's diff base): no history walk needed. */
    baseIsMergeBase?: boolean;
    /** The request comes from a fork. */
    fork: boolean;
    /**
     * The job has no secrets (a fork's `pull_request` on GitHub, a fork's pipeline run in the fork
     * on GitLab): no provider can be asked.
     */
    noSecrets: boolean;
    /** The event reviews code from outside with secrets present (`pull_request_target`). */
    targetEvent?: boolean;
  }
  | {
    ci: "github" | "gitlab" | "none";
    /** Not a pull/merge request: the caller needs `--base`. */
    kind: "other";
    /** Why, for the message. */
    reason: string;
  };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null ? v as Json : {});
const str = (v: unknown): string | undefined => typeof v === "string" && v !== "" ? v : undefined;

/**
 * The GitHub Actions context.
 *
 * @param env the job's environment
 * @param payload the parsed `GITHUB_EVENT_PATH` file (undefined when missing or unreadable)
 */
export function githubContext(
  env: Record<string, string | undefined>,
  payload: unknown,
): CiContext {
  const event = env.GITHUB_EVENT_NAME ?? "";
  if (event !== "pull_request" && event !== "pull_request_target") {
    return {
      ci: "github",
      kind: "other",
      reason: `GitHub event "${event || "?"}" is not a pull request`,
    };
  }
  const pr = obj(obj(payload).pull_request);
  const base = str(obj(pr.base).sha);
  const head = str(obj(pr.head).sha);
  if (!base || !head) {
    return {
      ci: "github",
      kind: "other",
      reason: `the event payload (GITHUB_EVENT_PATH) has no pull_request.base.sha / head.sha`,
    };
  }
  const headRepo = obj(pr.head).repo;
  const baseName = str(obj(obj(pr.base).repo).full_name);
  // head.repo is null when the fork was deleted; `fork` is true for any branch of a fork, so compare
  const fork = headRepo === null || str(obj(headRepo).full_name) !== baseName;
  const target = event === "pull_request_target";
  // pull_request: GITHUB_SHA is GitHub's test merge of head into base (refs/pull/N/merge)
  const merge = !target && str(env.GITHUB_SHA) !== undefined && env.GITHUB_SHA !== head;
  return {
    ci: "github",
    kind: "request",
    label: `pull request #${typeof pr.number === "number" ? pr.number : "?"}`,
    base,
    head,
    ...(merge ? { mergeCommit: env.GITHUB_SHA } : {}),
    fork,
    noSecrets: fork && !target,
    ...(target ? { targetEvent: true } : {}),
  };
}

/**
 * The GitLab CI context.
 *
 * @param env the job's environment
 */
export function gitlabContext(env: Record<string, string | undefined>): CiContext {
  if (env.CI_PIPELINE_SOURCE !== "merge_request_event") {
    return {
      ci: "gitlab",
      kind: "other",
      reason: `GitLab pipeline source "${env.CI_PIPELINE_SOURCE ?? "?"}" is not a merge request`,
    };
  }
  const commit = str(env.CI_COMMIT_SHA);
  const type = env.CI_MERGE_REQUEST_EVENT_TYPE ?? "detached";
  const merged = type === "merged_result" || type === "merge_train";
  // merged results: CI_COMMIT_SHA is a merge made on the target tip; detached: the source head,
  // reviewed from the merge request's diff base (DIFF_BASE..merge would include newer target work)
  const base = merged
    ? str(env.CI_MERGE_REQUEST_TARGET_BRANCH_SHA)
    : str(env.CI_MERGE_REQUEST_DIFF_BASE_SHA);
  if (!commit || !base) {
    return {
      ci: "gitlab",
      kind: "other",
      reason: `the merge request variables are incomplete (CI_COMMIT_SHA, ${
        merged ? "CI_MERGE_REQUEST_TARGET_BRANCH_SHA" : "CI_MERGE_REQUEST_DIFF_BASE_SHA"
      })`,
    };
  }
  const source = env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID;
  const target = env.CI_MERGE_REQUEST_PROJECT_ID;
  const fork = source !== undefined && target !== undefined && source !== target;
  return {
    ci: "gitlab",
    kind: "request",
    label: `merge request !${env.CI_MERGE_REQUEST_IID ?? "?"}`,
    base,
    ...(merged
      ? {
        mergeCommit: commit,
        ...(str(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA)
          ? { head: env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA }
          : {}),
      }
      : { head: commit, baseIsMergeBase: true }),
    fork,
    // a fork's pipeline runs in the fork with the fork's variables unless the parent project runs it
    noSecrets: fork && env.CI_PROJECT_ID !== target,
  };
}

/**
 * The context of the CI this process runs in.
 *
 * @param env the environment
 * @param readEvent reads GitHub's event payload file (returns undefined when it cannot)
 */
export function detectCi(
  env: Record<string, string | undefined>,
  readEvent: (path: string) => unknown,
): CiContext {
  if (env.GITHUB_ACTIONS === "true") {
    return githubContext(env, env.GITHUB_EVENT_PATH ? readEvent(env.GITHUB_EVENT_PATH) : undefined);
  }
  if (env.GITLAB_CI === "true") return gitlabContext(env);
  return { ci: "none", kind: "other", reason: "no GitHub Actions or GitLab CI variables" };
}
