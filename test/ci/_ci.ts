/**
 * Helpers for the CI-mode end-to-end tests: a "server" repository holding a pull/merge request the
 * way GitHub and GitLab hold one (the base branch moved on after the branch was cut, a test merge
 * commit, `refs/pull/1/*`), and a shallow checkout of it made the way the CI's checkout makes it,
 * plus the CI's environment variables and GitHub's event payload file.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { makeSandbox, type Sandbox, writeScenario } from "../e2e/_cli.ts";

/** The file the request changes (line 2) and the finding points at. */
export const APP = "src/app.ts";
const APP_TEXT = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";

/** A request on a server repository, and a CI checkout of it. */
export interface CiSandbox extends Sandbox {
  /** The request's base when the branch was cut (= the merge base). */
  cut: string;
  /** The base branch tip now (it moved on: a docs file). */
  baseTip: string;
  /** The request's head (changes line 2 of APP). */
  head: string;
  /** The test merge of head into the base tip. */
  merge: string;
  /** The CI checkout (a shallow clone), where `review-gate ci` runs. */
  workspace: string;
  /** A scenario file whose finding points at APP line 2 (scope introduced). */
  blocking: string;
}

async function git(sb: Sandbox, cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: sb.env,
    clearEnv: true,
    stdin: "null",
  })
    .output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** The finding every CI test's scenario answers with. */
export const FINDING = {
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: "b is off by one",
  body: "Callers expect 2.",
  file: APP,
  line_start: 2,
  line_end: 2,
  confidence: 0.9,
  recommendation: "Keep 2.",
};

/** Files beyond APP: committed on the base before the branch was cut, or by the request. */
export interface CiFiles {
  /** Repo-relative path → text, in the base's first commit. */
  base?: Record<string, string>;
  /** Repo-relative path → text, written by the request's commit beside its APP change. */
  request?: Record<string, string>;
}

/** APP's text at the request's head (what the finding's fingerprint is taken from). */
export const APP_HEAD_TEXT = APP_TEXT.replace("b = 2", "b = 3");

/**
 * A server repository with a request (main moved on after the branch was cut) and a checkout.
 *
 * @param checkout `merge`: depth 1 at the test merge (actions/checkout on `pull_request`, GitLab
 *   merged results); `head`: depth 1 at the head (GitLab detached pipelines); `full`: a full clone
 *   at the head
 * @param files `base`: more files of the base (committed before the branch is cut); `request`: more
 *   files the request writes (beside its change to APP)
 */
export async function makeCiSandbox(
  checkout: "merge" | "head" | "full",
  files: CiFiles = {},
): Promise<CiSandbox> {
  const sb = await makeSandbox({ [APP]: APP_TEXT, "docs.md": "# docs\n", ...files.base });
  const server = sb.repo.root;
  const g = (...args: string[]) => git(sb, server, ...args);
  const cut = await g("rev-parse", "HEAD");
  await g("checkout", "-q", "-b", "feature");
  await Deno.writeTextFile(join(server, APP), APP_HEAD_TEXT);
  for (const [path, text] of Object.entries(files.request ?? {})) {
    await Deno.mkdir(dirname(join(server, path)), { recursive: true });
    await Deno.writeTextFile(join(server, path), text);
  }
  await g("add", "-A");
  await g("commit", "-q", "-m", "feature: b = 3");
  const head = await g("rev-parse", "HEAD");
  await g("checkout", "-q", "main");
  await Deno.writeTextFile(join(server, "docs.md"), "# docs\nMAIN_MOVED_ON\n");
  await g("commit", "-q", "-am", "main moves on");
  const baseTip = await g("rev-parse", "HEAD");
  await g("checkout", "-q", "--detach");
  await g("merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature");
  const merge = await g("rev-parse", "HEAD");
  await g("update-ref", "refs/pull/1/merge", merge);
  await g("update-ref", "refs/pull/1/head", head);
  await g("checkout", "-q", "main");
  const workspace = join(sb.dir, "workspace");
  await ciCheckout(sb, checkout, workspace);
  const blocking = await writeScenario(sb, "blocking", [{
    kind: "valid",
    answer: { verdict: "needs-attention", summary: "A bug.", findings: [FINDING], next_steps: [] },
  }]);
  return { ...sb, cut, baseTip, head, merge, workspace, blocking };
}

/**
 * Check the request out into `workspace` as a CI job does (another runner of a matrix gets its own).
 *
 * @param sb a sandbox whose repository is the server ({@linkcode makeCiSandbox})
 * @param checkout as {@linkcode makeCiSandbox}'s
 * @param workspace a folder that does not exist yet
 */
export async function ciCheckout(
  sb: Sandbox,
  checkout: "merge" | "head" | "full",
  workspace: string,
): Promise<void> {
  const url = `file://${sb.repo.root}`;
  if (checkout === "full") {
    await git(sb, sb.dir, "clone", "-q", "--branch", "feature", url, workspace);
  } else {
    // as actions/checkout does: an empty repository that fetches the one ref, one commit deep
    await git(sb, sb.dir, "init", "-q", workspace);
    await git(sb, workspace, "remote", "add", "origin", url);
    const ref = checkout === "merge" ? "refs/pull/1/merge" : "feature";
    await git(sb, workspace, "fetch", "-q", "--depth=1", "origin", ref);
    await git(sb, workspace, "checkout", "-q", "--detach", "FETCH_HEAD");
  }
}

/** GitHub's `pull_request` webhook payload for the request (`fork`: head in another repository). */
export function pullRequestPayload(sb: CiSandbox, options: { fork?: boolean } = {}): unknown {
  return {
    action: "synchronize",
    number: 1,
    pull_request: {
      number: 1,
      base: { ref: "main", sha: sb.baseTip, repo: { full_name: "team/app", fork: false } },
      head: {
        ref: "feature",
        sha: sb.head,
        repo: { full_name: options.fork ? "outsider/app" : "team/app", fork: !!options.fork },
      },
    },
  };
}

/**
 * The environment GitHub Actions gives a `pull_request` (or `pull_request_target`) job, with the
 * payload file written.
 */
export async function githubEnv(
  sb: CiSandbox,
  options: { fork?: boolean; event?: string } = {},
): Promise<Record<string, string>> {
  const eventPath = join(sb.dir, "event.json");
  await Deno.writeTextFile(eventPath, JSON.stringify(pullRequestPayload(sb, options)));
  const target = options.event === "pull_request_target";
  return {
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: options.event ?? "pull_request",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_SHA: target ? sb.baseTip : sb.merge,
    GITHUB_REF: target ? "refs/heads/main" : "refs/pull/1/merge",
    GITHUB_BASE_REF: "main",
    GITHUB_HEAD_REF: "feature",
    GITHUB_WORKSPACE: sb.workspace,
    GITHUB_REPOSITORY: "team/app",
    GITHUB_STEP_SUMMARY: join(sb.dir, "step_summary.md"),
    GITHUB_OUTPUT: join(sb.dir, "github_output"),
  };
}

/** The environment GitLab CI gives a merge request pipeline job. */
export function gitlabEnv(
  sb: CiSandbox,
  options: { type: "detached" | "merged_result"; fork?: boolean; inFork?: boolean },
): Record<string, string> {
  const merged = options.type === "merged_result";
  return {
    CI: "true",
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_MERGE_REQUEST_EVENT_TYPE: options.type,
    CI_MERGE_REQUEST_IID: "7",
    CI_COMMIT_SHA: merged ? sb.merge : sb.head,
    CI_COMMIT_BEFORE_SHA: "0000000000000000000000000000000000000000",
    CI_MERGE_REQUEST_DIFF_BASE_SHA: sb.cut,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature",
    CI_MERGE_REQUEST_TARGET_BRANCH_SHA: merged ? sb.baseTip : "",
    CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: merged ? sb.head : "",
    CI_MERGE_REQUEST_PROJECT_ID: "100",
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: options.fork ? "200" : "100",
    CI_PROJECT_ID: options.inFork ? "200" : "100",
    CI_PROJECT_DIR: sb.workspace,
  };
}
