import assert from "node:assert/strict";
import { givenArgs } from "./background.ts";
import { REVIEW_FLAGS } from "./review.ts";
import { flagName } from "./command.ts";
import { JOB_ID_OPTION } from "../jobs/job_id_option.ts";

Deno.test("givenArgs() rebuilds a job's review argv from the parsed flags, --background left out", () => {
  const flags = {
    base: "main",
    noCache: true,
    staged: undefined,
    focus: "--looks-like-a-flag",
    provider: "codex",
    background: true,
    failOnMissing: undefined,
    format: ["sarif", "json"],
    output: ["r.sarif"],
  };
  assert.deepEqual(
    givenArgs(flags, REVIEW_FLAGS, [{ format: "sarif", output: "r.sarif" }, { format: "json" }]),
    [
      "--provider=codex",
      "--base=main",
      "--focus=--looks-like-a-flag",
      "--no-cache",
      "--format=sarif",
      "--output=r.sarif",
      "--format=json",
    ],
  );
});

Deno.test("review's hidden job option is the one lib/jobs/start.ts passes", () => {
  assert.ok(Object.keys(REVIEW_FLAGS).some((key) => flagName(key) === JOB_ID_OPTION));
});
