/**
 * The CI examples the README gives users — the one-job GitHub Actions and GitLab CI examples of
 * "CI mode", and the split review of "Review across a CI matrix" — are valid by each CI's own
 * schema (GitHub's workflow schema, test/schemas/github_workflow.ts; GitLab's `.gitlab-ci.yml`
 * JSON Schema, vendored in test/schemas/), a broken copy of each is refused (the checks are not
 * vacuous), and the split examples are wired as the README says: a `shard: [1, 2, 3, 4]` matrix
 * whose jobs each upload an artifact of a name of their own, and one aggregator with a stable name
 * that runs `merge` even when a shard failed (GitHub `needs` + `if: always()`; GitLab
 * `parallel: matrix` + `needs` + `when: always`). Every `with:` key an example gives the action is
 * one of action.yml's inputs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { workflowErrors } from "../schemas/github_workflow.ts";
import { gitlabCiValidator } from "../schemas/validators.ts";

const README = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
const ACTION = parse(Deno.readTextFileSync(new URL("../../action.yml", import.meta.url)));

/** The ```yaml blocks of the README section under `heading` (to the next heading of its level). */
function yamlBlocks(heading: string): string[] {
  const start = README.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no ${heading}`);
  const level = heading.match(/^#+/)![0];
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{2,${level.length}} `));
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```yaml\n([^]*?)```/g)].map((m) => m[1]);
}

/** A section's GitHub workflows (a `jobs:` key) and GitLab CI files (the others). */
function examples(heading: string): { github: string[]; gitlab: string[] } {
  const blocks = yamlBlocks(heading);
  const github = blocks.filter((b) => /^jobs:/m.test(b));
  return { github, gitlab: blocks.filter((b) => !github.includes(b)) };
}

function gitlabErrors(text: string): string[] {
  const validate = gitlabCiValidator();
  if (validate(parse(text))) return [];
  return (validate.errors as { instancePath: string; message: string }[]).map((e) =>
    `${e.instancePath} ${e.message}`
  );
}

const ONE_JOB = {
  github: examples("### GitHub Actions").github,
  gitlab: examples("### GitLab CI").gitlab,
};
const SPLIT = examples("### Review across a CI matrix");

Deno.test("the README's CI examples are valid by GitHub's workflow schema and GitLab's CI schema", async () => {
  assert.equal(ONE_JOB.github.length, 1);
  assert.equal(ONE_JOB.gitlab.length, 1);
  assert.equal(SPLIT.github.length, 1, "a split review example for GitHub Actions");
  assert.equal(SPLIT.gitlab.length, 1, "a split review example for GitLab CI");
  for (const [i, text] of [...ONE_JOB.github, ...SPLIT.github].entries()) {
    assert.deepEqual(await workflowErrors(`example-${i}.yml`, text), [], text);
  }
  for (const text of [...ONE_JOB.gitlab, ...SPLIT.gitlab]) {
    assert.deepEqual(gitlabErrors(text), [], text);
  }
});

Deno.test("a broken copy of each split example is refused by its CI's schema", async () => {
  const [github] = SPLIT.github;
  const brokenGithub: [string, string, RegExp][] = [
    ["fail-fast: false", "fail-fast: never", /Unexpected value 'never'/],
    ["          merge-multiple: true\n", "          merge-multiple: [true]\n", /./],
    ["    needs: review-shard\n", "    need: review-shard\n", /Unexpected value 'need'/],
  ];
  for (const [from, to, message] of brokenGithub) {
    assert.ok(github.includes(from), from);
    const errors = await workflowErrors("split.yml", github.replace(from, to));
    assert.ok(errors.some((e) => message.test(e)), `${to}: ${JSON.stringify(errors)}`);
  }
  const [gitlab] = SPLIT.gitlab;
  const brokenGitlab: [string, string][] = [
    ['      - SHARD: ["1", "2", "3", "4"]\n', "      SHARD: 4\n"],
    ["      artifacts: true\n", "      artifacts: always\n"],
    ["      when: always\n", "      when: sometimes\n"],
    ["    expire_in: 1 day\n", "    expire_on: 1 day\n"],
  ];
  for (const [from, to] of brokenGitlab) {
    assert.ok(gitlab.includes(from), from);
    assert.notDeepEqual(gitlabErrors(gitlab.replace(from, to)), [], to);
  }
});

/**
 * What is wrong with how a GitHub split workflow wires its aggregator: it must have a stable name
 * (`review-gate`), need the shard job, and run even when a shard failed (`if: always()`), else a
 * failed shard skips the merge and nothing says NOT reviewed.
 */
function aggregatorErrors(text: string): string[] {
  const jobs = parse(text).jobs as Record<string, Record<string, unknown>>;
  const aggregator = jobs["review-gate"];
  if (!aggregator) return ["no aggregator job named review-gate"];
  const errors: string[] = [];
  if (aggregator.needs !== "review-shard") errors.push("the aggregator does not need review-shard");
  if (aggregator.if !== "always()") errors.push("the aggregator lacks if: always()");
  const steps = aggregator.steps as { uses?: string; with?: Record<string, unknown> }[];
  if (!steps.some((s) => s.uses?.startsWith("OWNER/review-gate@") && s.with?.merge)) {
    errors.push("the aggregator runs no merge");
  }
  return errors;
}

Deno.test("the GitHub split example's aggregator always runs merge; a copy without if: always() is refused", () => {
  const [github] = SPLIT.github;
  assert.deepEqual(aggregatorErrors(github), []);
  const without = github.replace(
    "    needs: review-shard\n    if: always()\n",
    "    needs: review-shard\n",
  );
  assert.notEqual(without, github, "the example has the aggregator's if: always()");
  assert.deepEqual(aggregatorErrors(without), ["the aggregator lacks if: always()"]);
  // action.yml says so to those who read it instead of the README
  const header = Deno.readTextFileSync(new URL("../../action.yml", import.meta.url))
    .split("\n").filter((l) => l.startsWith("#")).join("\n");
  assert.match(header, /aggregator job[^]*`needs: <the matrix\s*#?\s*job>` and `if: always\(\)`/);
});

Deno.test("the GitHub split example: a shard matrix, an artifact per shard, one aggregator that always runs merge", () => {
  const workflow = parse(SPLIT.github[0]);
  const jobs = workflow.jobs as Record<string, Record<string, unknown>>;
  const shard = jobs["review-shard"];
  const matrix = (shard.strategy as { matrix: { shard: number[] } }).matrix.shard;
  assert.deepEqual(matrix, [1, 2, 3, 4]);
  type Step = { uses?: string; with?: Record<string, unknown>; if?: string };
  const steps = shard.steps as Step[];
  const review = steps.find((s) => s.uses?.startsWith("OWNER/review-gate@"))!;
  assert.equal(review.with!.shard, `\${{ matrix.shard }}/${matrix.length}`);
  const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
  assert.equal(upload.if, "always()");
  assert.match(String(upload.with!.name), /\$\{\{ matrix\.shard \}\}/, "a name of its own");
  assert.equal(upload.with!.path, review.with!["shard-output"]);
  const aggregator = jobs["review-gate"];
  assert.ok(aggregator, "the aggregator has a stable name: review-gate");
  assert.equal(aggregator.needs, "review-shard");
  assert.equal(aggregator.if, "always()");
  const after = aggregator.steps as Step[];
  const download = after.find((s) => s.uses?.startsWith("actions/download-artifact@"))!;
  const merge = after.find((s) => s.uses?.startsWith("OWNER/review-gate@"))!;
  assert.equal(merge.with!.merge, download.with!.path);
  assert.equal(merge.with!["max-calls"], review.with!["max-calls"], "the same plan");
  for (const step of [review, merge]) {
    for (const key of Object.keys(step.with ?? {})) {
      assert.ok(key in ACTION.inputs, `action.yml has no input ${key}`);
    }
  }
});

Deno.test("the GitLab split example: parallel matrix shards with their own artifacts, an aggregator that needs them all", () => {
  const file = parse(SPLIT.gitlab[0]) as Record<string, Record<string, unknown>>;
  const shard = file["review-gate-shard"];
  const values = (shard.parallel as { matrix: { SHARD: string[] }[] }).matrix[0].SHARD;
  assert.deepEqual(values, ["1", "2", "3", "4"]);
  const script = (shard.script as string[]).join("\n");
  assert.match(script, new RegExp(`ci\\s+--shard "\\$SHARD/${values.length}"`));
  assert.match(script, /--shard-output "review-gate-shards\/shard-\$SHARD\.json"/);
  assert.equal((shard.artifacts as { when: string }).when, "always");
  const aggregator = file["review-gate"];
  assert.deepEqual(aggregator.needs, [{ job: "review-gate-shard", artifacts: true }]);
  assert.equal((aggregator.rules as { when?: string }[])[0].when, "always");
  assert.match((aggregator.script as string[]).join("\n"), /main\.ts merge\s+review-gate-shards/);
});
