import assert from "node:assert/strict";
import { UsageError } from "../base/errors.ts";
import { runProcess } from "../exec/exec.ts";
import { run } from "./app.ts";
import type { CliDeps } from "./deps.ts";
import { type OutputFlags, outputRequests } from "./outputs.ts";

const TERMINAL = { format: "terminal" };

Deno.test("outputRequests() pairs each --output with the --format just before it, in argv order", () => {
  const flags: OutputFlags = { format: ["sarif", "json", "markdown"], output: ["r.sarif", "r.md"] };
  const args = [
    "review",
    "--format",
    "sarif",
    "--output",
    "r.sarif",
    "--format=json",
    "--format",
    "markdown",
    "--output=r.md",
  ];
  assert.deepEqual(outputRequests(flags, args, TERMINAL), [
    { format: "sarif", output: "r.sarif" },
    { format: "json" },
    { format: "markdown", output: "r.md" },
  ]);
  assert.deepEqual(outputRequests({}, ["review", "--", "--format"], TERMINAL), [TERMINAL]);
});

Deno.test("outputRequests() refuses an --output without its --format, twice, and two on stdout", () => {
  const cases: [OutputFlags, string[], RegExp][] = [
    [{ output: ["x.json"] }, ["--output", "x.json"], /--output x\.json must follow the --format/],
    [
      { format: ["json"], output: ["a", "b"] },
      ["--format", "json", "--output", "a", "--output", "b"],
      /--format json has two --output files/,
    ],
    [
      { format: ["json", "sarif"] },
      ["--format", "json", "--format", "sarif"],
      /Only one format can go to stdout \(json, sarif\)/,
    ],
  ];
  for (const [flags, args, message] of cases) {
    assert.throws(() => outputRequests(flags, args, TERMINAL), (e) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("the parser reads a value that looks like --format as a flag, as outputRequests() assumes", async () => {
  let err = "";
  const deps: CliDeps = {
    cwd: Deno.cwd(),
    env: {},
    stdout: { isTerminal: false, write: () => {} },
    stderr: { isTerminal: false, write: (t) => void (err += t) },
    readStdin: () => Promise.resolve(new Uint8Array()),
    runner: runProcess,
    now: () => new Date(),
    signal: new AbortController().signal,
    self: { execPath: Deno.execPath() },
  };
  assert.equal(await run(["review", "--focus", "--format", "json"], deps), 2);
  assert.match(err, /Expected input for flag --focus/);
});
