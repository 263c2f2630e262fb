/**
 * What a plain `review` loads before its first stage runs: the static import graph of main.ts, the
 * CLI (lib/cli/app.ts), and the review's code (lib/cli/review_ahead.ts, lib/cli/review_action.ts),
 * read from `deno info --json` (dynamic imports not followed). Code a review uses only sometimes
 * loads where it is used (docs/design.md "Performance notes"); this test holds the modules below out
 * of that graph so a new static import cannot quietly put them back on every cache hit.
 */
import assert from "node:assert/strict";

const ROOTS = ["main.ts", "lib/cli/app.ts", "lib/cli/review_ahead.ts", "lib/cli/review_action.ts"];

/** Modules a review needs only sometimes, and when it needs them. */
const LOADED_WHEN_USED: Record<string, string> = {
  "lib/generated/config_validator.js": "a config file, a REVIEW_GATE_* setting or a policy flag",
  "lib/generated/acks_validator.js": "an acks file to read",
  "lib/providers/claude/adapter.ts": "claude asked",
  "lib/providers/codex/adapter.ts": "codex asked",
  "lib/providers/vibe/adapter.ts": "vibe asked",
  // what only a review that asks a model uses (a cache hit never does): the prompt builders
  // (lib/kinds/definition.ts `prompts`) and the call's setting (lib/review/ahead.ts)
  "lib/kinds/review/prompt.ts": "a prompt to build",
  "lib/kinds/review/rules_text.ts": "a prompt to build",
  "prompts/corrective.txt": "a prompt to build",
  // the compliance kind (lib/kinds/registry.ts loads a kind's definition for a run of it); its
  // command-line flags (lib/kinds/compliance/cli.ts) stay, the parser needs them
  ...Object.fromEntries(
    ["definition", "kind", "prompt", "render", "template"].map((
      name,
    ) => [`lib/kinds/compliance/${name}.ts`, "a compliance run (--plan)"]),
  ),
  "prompts/compliance.txt": "a compliance run (--plan)",
  "schemas/compliance.schema.json": "a compliance run (--plan)",
  "lib/review/call_setting.ts": "a provider call's workspace and read-only proof",
  // what only some changes or some runs need: the content a default exclude must see (a lockfile,
  // minified or snapshot file changed), binary sections to decode, a gate's daily budget after a
  // miss, the verdict memo of an immutable target
  "lib/rules/content_checks.ts": "a changed file a default exclude names",
  "lib/rules/blob_read.ts": "a changed file a default exclude names",
  "lib/git/decoded_diff.ts": "a binary section in the patch",
  "lib/review/budget.ts": "a gate's daily budget, after a cache miss",
  "lib/store/verdict_memo.ts": "a gate's verdict memo (an immutable target)",
  // the formats a review did not ask for (lib/formats/registry.ts loads each when asked)
  "lib/formats/json.ts": "--json or --format json",
  "lib/formats/sarif.ts": "--format sarif",
  "lib/formats/rdjson.ts": "--format rdjson or rdjsonl",
  "lib/formats/github.ts": "--format github",
  // the other commands' definitions (lib/cli/app.ts COMMANDS): for a command list or "did you mean"
  ...Object.fromEntries(
    [
      "ci",
      "jobs",
      "status",
      "result",
      "cancel",
      "schema",
      "decode",
      "hook",
      "install",
      "gate",
      "doctor",
      "ack",
      "acks",
      "stats",
      "prune",
      "eval",
      "demo",
    ].map((name) => [`lib/cli/${name}.ts`, `review-gate ${name}, or every command's help`]),
  ),
};

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The project-relative paths of every module statically reachable from `root`. */
async function staticGraph(root: string): Promise<Set<string>> {
  const project = new URL("../../", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(root, project).href],
    cwd: project,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code) stack.push(dep.code.specifier);
    }
  }
  return new Set(
    [...seen].filter((s) => s.startsWith(project.href)).map((s) => s.slice(project.href.length)),
  );
}

Deno.test("a review's static import graph leaves out what only some reviews use", async () => {
  const graph = new Set((await Promise.all(ROOTS.map(staticGraph))).flatMap((g) => [...g]));
  assert.ok(graph.has("lib/review/run_review.ts"), "the graph holds the pipeline");
  const loaded = Object.keys(LOADED_WHEN_USED).filter((m) => graph.has(m));
  assert.deepEqual(
    loaded.map((m) => `${m} (needed for ${LOADED_WHEN_USED[m]})`),
    [],
    "loaded on every review",
  );
});
