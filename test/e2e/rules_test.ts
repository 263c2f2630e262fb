/**
 * End to end: the team's rules as a user writes them — REVIEW.md files, config instructions and
 * path filters — driving `review-gate review` with the fake provider, asserting on what the
 * provider was sent (the fake's invocation log), the exit code and the `--json` envelope.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  makeSandbox,
  type Provider,
  PROVIDERS,
  readFakeLog,
  runCli,
  type Sandbox,
  writeScenario,
} from "./_cli.ts";
import { assertFencedDiff, promptOf } from "./_assert.ts";

const DB_RULE = "Flag every TODO in src/db/ as a medium maintainability finding.";

async function withSandbox(
  files: Record<string, string>,
  fn: (sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await makeSandbox(files);
  try {
    await fn(sandbox);
  } finally {
    await sandbox.cleanup();
  }
}

/** The RULES block of a prompt with its nonce replaced by N, or null when there is none. */
function rulesBlock(prompt: string): string | null {
  const match = prompt.match(/<<<RULES ([0-9a-f]{16})\n[\s\S]*?\nRULES \1>>>/);
  return match ? match[0].replaceAll(match[1], "N") : null;
}

async function lastPrompt(sandbox: Sandbox): Promise<string> {
  const log = await readFakeLog(sandbox);
  assert.ok(log.length > 0, "the provider was called");
  return promptOf(log.at(-1)!);
}

const REPO = {
  "REVIEW.md": "Every exported function needs a doc comment.\n",
  "src/db/REVIEW.md": `${DB_RULE}\n`,
  "src/db/query.ts": "export const q = 1;\n",
  "src/app.ts": "export const a = 1;\n",
};

Deno.test("a src/db/ guideline reaches the prompt only for changes under src/db/", async () => {
  await withSandbox(REPO, async (sb) => {
    await sb.repo.write("src/app.ts", "export const a = 2; // TODO\n");
    const outside = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(outside.code, 0, outside.stderr);
    const first = await lastPrompt(sb);
    assert.ok(!first.includes(DB_RULE), "the src/db/ guideline is not sent for src/app.ts");
    const rootOnly = rulesBlock(first);
    assert.ok(rootOnly?.includes("Every exported function needs a doc comment."), first);
    assert.deepEqual(
      JSON.parse(outside.stdout).rules.guidelines.map((g: { source: string }) => g.source),
      ["REVIEW.md"],
    );

    await sb.repo.write("src/app.ts", "export const a = 1;\n");
    await sb.repo.write("src/db/query.ts", "export const q = 2; // TODO: index\n");
    const inside = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(inside.code, 0, inside.stderr);
    const second = await lastPrompt(sb);
    const block = rulesBlock(second);
    assert.ok(block?.includes(DB_RULE), second);
    assert.match(block!, /## From "src\/db\/REVIEW\.md" \(applies to src\/db\/\)/);
    const diff = assertFencedDiff(second, "+export const q = 2; // TODO: index");
    assert.ok(!diff.includes(DB_RULE), "the guideline is policy, outside the diff's data fence");
    assert.ok(
      second.indexOf("<<<RULES") < second.indexOf("<<<CHANGE"),
      "policy comes before the data",
    );
    const rules = JSON.parse(inside.stdout).rules;
    assert.deepEqual(rules.guidelines.map((g: { source: string }) => g.source), [
      "REVIEW.md",
      "src/db/REVIEW.md",
    ]);
    assert.equal(rules.from, "worktree");
  });
});

Deno.test("review --plan-only shows which guidelines would be sent and what is excluded by rule", async () => {
  await withSandbox(
    { ...REPO, "package-lock.json": '{"lockfileVersion":3,"packages":{}}\n' },
    async (sb) => {
      await sb.repo.write("src/db/query.ts", "export const q = 2; // TODO\n");
      await sb.repo.write("package-lock.json", '{"lockfileVersion":3,"packages":{"":{}}}\n');
      const text = await runCli(sb, ["review", "--plan-only"]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(
        text.stdout,
        /Guidelines:\n {2}"REVIEW\.md" \(applies to the whole repository; \d+ B\)\n {2}"src\/db\/REVIEW\.md" \(applies to src\/db\/; \d+ B\)\n/,
      );
      assert.match(
        text.stdout,
        /Excluded by rule \(never sent, not counted against the budget\):\n {2}"package-lock\.json" \(default: npm lockfile\)/,
      );
      const json = JSON.parse((await runCli(sb, ["review", "--plan-only", "--json"])).stdout);
      assert.deepEqual(json.rules.guidelines.map((g: { source: string }) => g.source), [
        "REVIEW.md",
        "src/db/REVIEW.md",
      ]);
      assert.deepEqual(json.rules.excluded, [
        { path: "package-lock.json", rule: "default: npm lockfile" },
      ]);
      assert.equal((await readFakeLog(sb)).length, 0, "no model call");
    },
  );
});

Deno.test("guidelines reach the claude, codex and vibe prompts the same way", async () => {
  await withSandbox(REPO, async (sb) => {
    await sb.repo.write("src/db/query.ts", "export const q = 2; // TODO\n");
    await Deno.writeTextFile(
      `${sb.repo.root}/.review-gate.json`,
      JSON.stringify({
        instructions: "Prefer small functions.",
        path_instructions: [{ paths: ["*.ts"], instructions: "No any types." }],
      }),
    );
    const blocks: Partial<Record<Provider, string | null>> = {};
    for (const provider of PROVIDERS) {
      const r = await runCli(sb, ["review", "--provider", provider, "--no-cache"], {
        scenario: "valid",
      });
      assert.equal(r.code, 0, `${provider}: ${r.stdout}${r.stderr}`);
      const prompt = await lastPrompt(sb);
      blocks[provider] = rulesBlock(prompt);
      assertFencedDiff(prompt, "+export const q = 2; // TODO");
    }
    assert.ok(blocks.claude?.includes(DB_RULE));
    assert.match(
      blocks.claude!,
      /## From "config instructions" \(applies to the whole repository\)/,
    );
    assert.match(
      blocks.claude!,
      /## From "config path_instructions\[0\]" \(applies to paths matching "\*\.ts"\)\nNo any types\./,
    );
    assert.equal(blocks.codex, blocks.claude);
    assert.equal(blocks.vibe, blocks.claude);
  });
});

Deno.test("a lockfile-only change is NOT reviewed (excluded by rule), with no model call and exit 3", async () => {
  await withSandbox({ "package-lock.json": '{"lockfileVersion":3}\n' }, async (sb) => {
    await sb.repo.write("package-lock.json", '{"lockfileVersion":3,"packages":{}}\n');
    const r = await runCli(sb, ["review"], { scenario: "valid" });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stdout,
      "review-gate: NOT reviewed — every changed file is excluded by rule: " +
        "package-lock.json (default: npm lockfile); to review them: --no-default-excludes " +
        "(no model call)\nChange: working tree\n",
    );
    const json = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(json.code, 3);
    const envelope = JSON.parse(json.stdout);
    assert.equal(envelope.status, "not-reviewed");
    assert.deepEqual(envelope.rules.excluded, [
      { path: "package-lock.json", rule: "default: npm lockfile" },
    ]);
    assert.equal((await readFakeLog(sb)).length, 0, "no model call");

    const all = await runCli(sb, ["review", "--no-default-excludes"], { scenario: "valid" });
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^review-gate: approved/);
    assert.match(await lastPrompt(sb), /\+\{"lockfileVersion":3,"packages":\{\}\}/);
  });
});

Deno.test("a change of a binary file and a lockfile is NOT reviewed, and names the lockfile too", async () => {
  await withSandbox({ "src/app.ts": "a\n" }, async (sb) => {
    await sb.repo.write("logo.png", new Uint8Array([137, 80, 78, 71, 0, 1, 2]));
    await sb.repo.write("package-lock.json", '{"lockfileVersion":3,"packages":{}}\n');
    const r = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(r.code, 3, r.stderr);
    const envelope = JSON.parse(r.stdout);
    assert.equal(envelope.status, "not-reviewed");
    assert.match(
      envelope.message,
      /could be shown to the model[^;]*"logo\.png"[^;]*; excluded by rule: package-lock\.json \(default: npm lockfile\)$/,
    );
    assert.equal((await readFakeLog(sb)).length, 0, "no model call");
  });
});

Deno.test("a default exclude is earned by the content: files only named like one are reviewed", async () => {
  const minified = "var a=1;" + "function f(t){return t+1};".repeat(200) + "\n";
  const payload = 'const { execSync } = require("node:child_process");\nexecSync("id");\n';
  await withSandbox({ "src/app.ts": "a\n" }, async (sb) => {
    await sb.repo.write("src/app.ts", "a\nb\n");
    await sb.repo.write("src/__snapshots__/app.test.ts.snap", payload);
    await sb.repo.write("tools/package-lock.json", payload);
    await sb.repo.write("dist/index.js", payload);
    await sb.repo.write("web/app.min.js", minified);
    await sb.repo.write("yarn.lock", '# yarn lockfile v1\n\nleft-pad@^1.3.0:\n  version "1.3.0"\n');
    const r = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(r.code, 0, r.stderr);
    const envelope = JSON.parse(r.stdout);
    assert.deepEqual(envelope.rules.excluded, [
      { path: "web/app.min.js", rule: "default: minified file" },
      { path: "yarn.lock", rule: "default: yarn lockfile" },
    ]);
    const notes = envelope.rules.notes.join("\n");
    assert.match(
      notes,
      /src\/__snapshots__\/app\.test\.ts\.snap: reviewed, not excluded by "default: snapshot": it is not a snapshot file/,
    );
    assert.match(
      notes,
      /tools\/package-lock\.json: reviewed, not excluded by "default: npm lockfile": it does not parse as JSON/,
    );
    assert.match(
      notes,
      /dist\/index\.js: reviewed, not excluded by "default: build output": built output is left out only when/,
    );
    const prompt = await lastPrompt(sb);
    for (
      const path of [
        "src/__snapshots__/app.test.ts.snap",
        "tools/package-lock.json",
        "dist/index.js",
      ]
    ) {
      assert.ok(prompt.includes(`+++ b/${path}`), `${path} reached the model`);
    }
    assert.ok(!prompt.includes("+++ b/web/app.min.js"), "real minified output is still left out");
    const md = await Deno.readTextFile(`${envelope.runDir}/review.md`);
    assert.match(
      md,
      /- note: tools\/package-lock\.json: reviewed, not excluded by "default: npm lockfile"/,
    );
    assert.match(
      md,
      /- Coverage: complete — [^\n]*; 2 files excluded by rule, not reviewed \(listed below\)\n/,
    );
    assert.ok(!prompt.includes("+++ b/yarn.lock"), "a real lockfile is still left out");
  });
});

Deno.test("a default exclude's content check reads the right side: deletions, renames and symlinks", async () => {
  const minified = "var a=1;" + "function f(t){return t+1};".repeat(200) + "\n";
  const readable = "export function pad(v) {\n  return String(v);\n}\n";
  await withSandbox({
    "web/old.min.js": readable,
    "web/gone.min.js": "var g=0;" + "function g(t){return t*3};".repeat(300) + "\n",
    "web/real.min.js": minified,
    "src/app.ts": "a\n",
  }, async (sb) => {
    await Deno.remove(`${sb.repo.root}/web/old.min.js`);
    await Deno.remove(`${sb.repo.root}/web/gone.min.js`);
    await sb.repo.git("mv", "web/real.min.js", "web/renamed.min.js");
    await sb.repo.write("web/renamed.min.js", minified.replace("var a=1;", "var a=2;"));
    await Deno.mkdir(`${sb.repo.root}/pkg`);
    await Deno.symlink("../src/app.ts", `${sb.repo.root}/pkg/package-lock.json`);
    const r = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(r.code, 0, r.stderr);
    const envelope = JSON.parse(r.stdout);
    assert.deepEqual(envelope.rules.excluded, [
      { path: "web/gone.min.js", rule: "default: minified file" },
      { path: "web/renamed.min.js", rule: "default: minified file" },
    ]);
    const prompt = await lastPrompt(sb);
    assert.ok(prompt.includes("--- a/web/old.min.js"), "deleting readable code is reviewed");
    assert.ok(prompt.includes("+++ b/pkg/package-lock.json"), "a symlink is no lockfile");
  });
});

Deno.test("excluded files are named, never sent and never counted against the budget", async () => {
  const big = "x".repeat(70_000) + "\n";
  await withSandbox(
    { "src/a.ts": "a\n", ".gitattributes": "gen/** linguist-generated\n" },
    async (sb) => {
      await sb.repo.write("src/a.ts", "a\nb\n");
      await sb.repo.write("dist/bundle.js", big);
      await sb.repo.write("web/app.min.js", big);
      await sb.repo.write("gen/types.ts", big);
      await sb.repo.write("vendor/lib.js", "v\n");
      await Deno.writeTextFile(
        `${sb.repo.root}/.review-gate.json`,
        JSON.stringify({ exclude: ["vendor/"] }),
      );
      const r = await runCli(sb, ["review", "--json"], { scenario: "valid" });
      assert.equal(r.code, 0, r.stderr);
      const envelope = JSON.parse(r.stdout);
      assert.deepEqual(envelope.rules.excluded, [
        { path: "dist/bundle.js", rule: "default: build output" },
        { path: "gen/types.ts", rule: ".gitattributes linguist-generated" },
        { path: "vendor/lib.js", rule: 'exclude "vendor/"' },
        { path: "web/app.min.js", rule: "default: minified file" },
      ]);
      assert.equal(envelope.coverage.status, "complete", "excluded is not unreviewed");
      const prompt = await lastPrompt(sb);
      assert.ok(!prompt.includes("xxxxxxxx"), "no excluded content is sent");
      const files = prompt.match(/<<<FILES ([0-9a-f]{16})\n([\s\S]*?)\nFILES \1>>>/);
      assert.ok(files, "the excluded names are fenced as data");
      assert.match(
        files[2],
        /Excluded by the team's rules[^\n]*\n- "dist\/bundle\.js" \(default: build output\)/,
      );
    },
  );
});

/** A blocking answer: one high bug introduced at src/app.ts line 1. */
const BLOCKING = {
  verdict: "needs-attention",
  summary: "Wrong value.",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "a must stay 1",
    body: "Callers expect 1.",
    file: "src/app.ts",
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "Set it back.",
  }],
  next_steps: [],
};

Deno.test("a pull request that lowers fail_on is judged by the base's fail_on with --rules-from or --untrusted", async () => {
  const files = {
    ".review-gate.json": '{ "fail_on": "high" }\n',
    "src/app.ts": "export const a = 1;\n",
  };
  await withSandbox(files, async (sb) => {
    await sb.repo.git("switch", "-q", "-c", "pr");
    await sb.repo.write(".review-gate.json", '{ "fail_on": "critical" }\n');
    await sb.repo.write("src/app.ts", "export const a = 2;\n");
    await sb.repo.git("commit", "-q", "-am", "lower the bar");
    const scenario = await writeScenario(sb, "blocking", [{ kind: "valid", answer: BLOCKING }]);

    const fromHead = await runCli(sb, ["review", "--base", "main"], { scenario });
    assert.equal(fromHead.code, 0, "the PR's own config lets its high finding through");
    assert.match(fromHead.stdout, /This change edits review rules: \.review-gate\.json/);

    const fromBase = await runCli(sb, [
      "review",
      "--base",
      "main",
      "--rules-from",
      "main",
      "--json",
    ], {
      scenario,
    });
    assert.equal(fromBase.code, 1, fromBase.stdout + fromBase.stderr);
    const envelope = JSON.parse(fromBase.stdout);
    assert.equal(envelope.blocking, true);
    assert.match(envelope.rules.from, /^main, file tree [0-9a-f]{12}$/);
    assert.deepEqual(envelope.rules.editedRuleFiles, [".review-gate.json"]);
    const diff = assertFencedDiff(await lastPrompt(sb), '+{ "fail_on": "critical" }');
    assert.ok(diff.includes("+export const a = 2;"), "the config edit is reviewed like code");

    const untrusted = await runCli(sb, ["review", "--base", "main", "--untrusted", "--json"], {
      scenario,
    });
    assert.equal(untrusted.code, 1, untrusted.stdout + untrusted.stderr);
    const notes: string[] = JSON.parse(untrusted.stdout).rules.notes;
    assert.ok(
      notes.some((n) => /may only make the review stricter; ignored: fail_on/.test(n)),
      notes.join("\n"),
    );

    const bad = await runCli(sb, ["review", "--rules-from", "no-such-ref"], { scenario });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Cannot read rules from "no-such-ref"/);
  });
});

Deno.test("a review in parts sends each part only the guidelines for its own files", async () => {
  await withSandbox({ "d0/REVIEW.md": "D0 RULE: check every loop bound.\n" }, async (sb) => {
    for (let f = 0; f < 6; f++) {
      const body = Array.from({ length: 40 }, (_, i) => `const v${i} = "${"x".repeat(50)}";`);
      await sb.repo.write(`d${f % 2}/f${f}.ts`, body.join("\n") + "\n");
    }
    await Deno.writeTextFile(`${sb.repo.root}/.git/info/exclude`, ".review-gate.json\n");
    await sb.repo.write(
      ".review-gate.json",
      JSON.stringify({ budgets: { file_bytes: 4096, total_bytes: 8192 } }),
    );
    const r = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const log = await readFakeLog(sb);
    assert.ok(log.length >= 2, `${log.length} parts`);
    for (const call of log) {
      const prompt = promptOf(call);
      const diff = prompt.match(/<<<CHANGE ([0-9a-f]{16})\n([\s\S]*?)\nCHANGE \1>>>/)?.[2] ?? "";
      const hasD0 = /^diff --git a\/d0\//m.test(diff);
      assert.equal(
        (rulesBlock(prompt) ?? "").includes("D0 RULE"),
        hasD0,
        `the d0/ guideline goes with the d0/ files only:\n${prompt.slice(0, 400)}`,
      );
    }
    assert.ok(log.some((c) => !/^diff --git a\/d0\//m.test(promptOf(c))), "a part without d0/");
  });
});

Deno.test("a symlink earns no default exclude and every output says its target's content was not reviewed", async () => {
  await withSandbox({ "src/app.ts": "a\n", ".gitignore": "secret/\n" }, async (sb) => {
    const root = sb.repo.root;
    await Deno.mkdir(`${root}/secret`);
    await Deno.writeTextFile(
      `${root}/secret/evil.js`,
      'require("child_process").execSync("id");\n',
    );
    // a link into an ignored directory, and one named like a minified file whose 600-byte target
    // path (./././…) would pass the minified test if the link text were content
    await Deno.symlink("../secret/evil.js", `${root}/src/run.js`);
    await Deno.symlink(`${"./".repeat(300)}secret/evil.js`, `${root}/app.min.js`);
    const r = await runCli(sb, ["review", "--json"], { scenario: "valid" });
    assert.equal(r.code, 0, r.stderr);
    const envelope = JSON.parse(r.stdout);
    assert.deepEqual(envelope.rules.excluded, [], "a symlink is no minified file");
    const notes = envelope.rules.notes.join("\n");
    assert.match(
      notes,
      /app\.min\.js: reviewed, not excluded by "default: minified file": it is a symlink/,
    );
    for (const path of ["app.min.js", "src/run.js"]) {
      assert.ok(
        envelope.rules.notes.includes(
          `${path}: a symlink: the path it points to was reviewed, not the content there (reviewed only if that file is itself part of the change and not excluded)`,
        ),
        notes,
      );
    }
    const prompt = await lastPrompt(sb);
    assert.ok(prompt.includes("+++ b/app.min.js"), "the link reached the model");
    assert.ok(prompt.includes("+../secret/evil.js"), "as its target path");
    assert.ok(!prompt.includes("execSync"), "the content it points to was not read");
    const md = await Deno.readTextFile(`${envelope.runDir}/review.md`);
    assert.match(md, /- note: src\/run\.js: a symlink: the path it points to was reviewed, not/);
    const text = await runCli(sb, ["review"], { scenario: "valid" });
    assert.match(text.stdout, /src\/run\.js: a symlink: the path it points to was reviewed, not/);
  });
});
