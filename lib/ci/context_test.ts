import assert from "node:assert/strict";
import { detectCi, githubContext, gitlabContext } from "./context.ts";
import { ciExitCode } from "./run_ci.ts";
import type { RunRecord } from "../store/run_record.ts";

const pr = (head: unknown, extra: Record<string, unknown> = {}) => ({
  pull_request: {
    number: 3,
    base: { sha: "b".repeat(40), repo: { full_name: "team/app" } },
    head: { sha: "h".repeat(40), repo: head },
    ...extra,
  },
});

Deno.test("githubContext(): the test merge, forks (deleted ones too) and pull_request_target", () => {
  const env = { GITHUB_EVENT_NAME: "pull_request", GITHUB_SHA: "m".repeat(40) };
  assert.deepEqual(githubContext(env, pr({ full_name: "team/app" })), {
    ci: "github",
    kind: "request",
    label: "pull request #3",
    base: "b".repeat(40),
    head: "h".repeat(40),
    mergeCommit: "m".repeat(40),
    fork: false,
    noSecrets: false,
  });
  const fork = githubContext(env, pr({ full_name: "other/app", fork: true }));
  assert.equal(fork.kind === "request" && fork.noSecrets, true);
  const deleted = githubContext(env, pr(null));
  assert.equal(deleted.kind === "request" && deleted.fork, true, "head.repo null: a deleted fork");
  const target = githubContext(
    { ...env, GITHUB_EVENT_NAME: "pull_request_target", GITHUB_SHA: "d".repeat(40) },
    pr({ full_name: "other/app" }),
  );
  assert.ok(target.kind === "request" && target.fork && !target.noSecrets && !target.mergeCommit);
  assert.equal(githubContext({ GITHUB_EVENT_NAME: "push" }, {}).kind, "other");
  assert.equal(githubContext(env, {}).kind, "other", "no payload");
});

Deno.test("gitlabContext(): detached, merged results, fork pipelines in the fork or the parent", () => {
  const env = {
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_MERGE_REQUEST_IID: "9",
    CI_COMMIT_SHA: "c".repeat(40),
    CI_MERGE_REQUEST_DIFF_BASE_SHA: "d".repeat(40),
    CI_MERGE_REQUEST_TARGET_BRANCH_SHA: "",
    CI_MERGE_REQUEST_PROJECT_ID: "1",
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "1",
    CI_PROJECT_ID: "1",
  };
  assert.deepEqual(gitlabContext(env), {
    ci: "gitlab",
    kind: "request",
    label: "merge request !9",
    base: "d".repeat(40),
    head: "c".repeat(40),
    baseIsMergeBase: true,
    fork: false,
    noSecrets: false,
  });
  const merged = gitlabContext({
    ...env,
    CI_MERGE_REQUEST_EVENT_TYPE: "merged_result",
    CI_MERGE_REQUEST_TARGET_BRANCH_SHA: "t".repeat(40),
  });
  assert.ok(merged.kind === "request" && merged.mergeCommit === "c".repeat(40));
  assert.equal(merged.kind === "request" && merged.base, "t".repeat(40));
  const inFork = gitlabContext({
    ...env,
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "2",
    CI_PROJECT_ID: "2",
  });
  assert.ok(inFork.kind === "request" && inFork.fork && inFork.noSecrets);
  const inParent = gitlabContext({ ...env, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "2" });
  assert.ok(inParent.kind === "request" && inParent.fork && !inParent.noSecrets);
  assert.equal(gitlabContext({ CI_PIPELINE_SOURCE: "push" }).kind, "other");
});

Deno.test("detectCi() picks the CI from its variables", () => {
  assert.equal(detectCi({}, () => undefined).ci, "none");
  assert.equal(detectCi({ GITLAB_CI: "true" }, () => undefined).ci, "gitlab");
  let read = "";
  detectCi({ GITHUB_ACTIONS: "true", GITHUB_EVENT_PATH: "/e.json" }, (p) => (read = p, {}));
  assert.equal(read, "/e.json");
});

Deno.test("ciExitCode() follows on_error and on_partial", () => {
  const at = (status: string, extra: Partial<RunRecord> = {}) => ({
    record: { status, blocking: false, ...extra } as RunRecord,
    exitCode: 0,
  });
  const block = { onError: "block", onPartial: "block" } as const;
  const allow = { onError: "allow", onPartial: "allow" } as const;
  assert.equal(ciExitCode(at("approved"), block), 0);
  assert.equal(ciExitCode(at("needs-attention", { blocking: true }), allow), 1);
  assert.equal(ciExitCode(at("provider-error"), block), 3);
  assert.equal(ciExitCode(at("provider-error"), allow), 0);
  assert.equal(ciExitCode(at("not-reviewed"), { ...allow, onError: "block" }, true), 3);
  assert.equal(ciExitCode(at("not-reviewed"), { ...block, onPartial: "allow" }), 0);
  // on_partial block: a change none of which was reviewed (a binary-only request) fails with 3
  assert.equal(ciExitCode(at("not-reviewed"), block), 3);
  assert.equal(ciExitCode(at("not-reviewed"), { ...allow, onPartial: "block" }), 3);
  const partial = { coverage: { status: "partial" } } as Partial<RunRecord>;
  assert.equal(ciExitCode(at("approved", partial), block), 1);
  assert.equal(ciExitCode(at("approved", partial), allow), 0);
  assert.equal(ciExitCode(at("interrupted"), allow), 130);
});
