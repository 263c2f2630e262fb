/**
 * The project's own GitHub Actions workflow (`.github/workflows/`): valid by GitHub's workflow
 * schema (test/schemas/github_workflow.ts), and it runs what CI here runs — the whole suite and the
 * contract suite, with the pinned provider CLIs — on a Linux and a macOS runner, with the Deno that
 * `.ci/run` pins. A broken copy of it is refused, so the check is not vacuous.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { workflowErrors } from "../schemas/github_workflow.ts";

const WORKFLOWS = new URL("../../.github/workflows/", import.meta.url);
const CI_WORKFLOW = new URL("ci.yml", WORKFLOWS);

Deno.test("every workflow in .github/workflows/ is valid by GitHub's workflow schema", async () => {
  const names = [...Deno.readDirSync(WORKFLOWS)].map((e) => e.name).filter((n) =>
    /\.ya?ml$/.test(n)
  );
  assert.ok(names.includes("ci.yml"), names.join(", "));
  for (const name of names) {
    assert.deepEqual(
      await workflowErrors(name, await Deno.readTextFile(new URL(name, WORKFLOWS))),
      [],
    );
  }
});

Deno.test("the workflow check refuses a broken workflow", async () => {
  const text = await Deno.readTextFile(CI_WORKFLOW);
  const broken: [string, string, string, RegExp][] = [
    ["a misspelt key", "runs-on:", "run-on:", /Unexpected value 'run-on'/],
    [
      "a missing required key",
      "    runs-on: ${{ matrix.os }}\n",
      "",
      /Required property is missing: runs-on/,
    ],
    [
      "a value of the wrong type",
      "timeout-minutes: 60",
      "timeout-minutes: soon",
      /Unexpected value 'soon'/,
    ],
    [
      "an unclosed expression",
      "name: ${{ matrix.os }}",
      "name: ${{ matrix.os }",
      /expression is not closed/,
    ],
    [
      "a step that both uses and runs",
      "      - uses: actions/checkout@v4\n",
      "      - uses: actions/checkout@v4\n        run: echo\n",
      /Unexpected value 'run'/,
    ],
    ["broken YAML", "jobs:\n", "jobs:\n  - [\n", /./],
  ];
  for (const [what, from, to, message] of broken) {
    assert.ok(text.includes(from), `${what}: the workflow no longer holds ${JSON.stringify(from)}`);
    const errors = await workflowErrors("ci.yml", text.replace(from, to));
    assert.ok(errors.some((e) => message.test(e)), `${what}: ${JSON.stringify(errors)}`);
  }
});

Deno.test("the workflow runs the suite and the contract suite on Linux and macOS with the pinned Deno", async () => {
  const workflow = parse(await Deno.readTextFile(CI_WORKFLOW));
  const job = workflow.jobs.test;
  assert.deepEqual(job.strategy.matrix.os, ["ubuntu-latest", "macos-latest"]);
  assert.equal(job["runs-on"], "${{ matrix.os }}");
  const runs = (job.steps as { run?: string }[]).map((s) => s.run ?? "").join("\n");
  for (
    const command of [
      "deno task test",
      "bash scripts/install_provider_clis.sh",
      "deno task test:contract",
    ]
  ) {
    assert.ok(runs.split("\n").some((line) => line.trim() === command), `no step runs ${command}`);
  }
  assert.equal(job.env.REVIEW_GATE_CONTRACT_REQUIRE, "1", "a missing CLI must fail, not skip");
  const pinned = (await Deno.readTextFile(new URL("../../.ci/run", import.meta.url)))
    .match(/^DENO_VERSION=(\S+)$/m)?.[1];
  const setup = (job.steps as { uses?: string; with?: Record<string, string> }[])
    .find((s) => s.uses?.startsWith("denoland/setup-deno@"));
  assert.equal(setup?.with?.["deno-version"], `v${pinned}`);
});
