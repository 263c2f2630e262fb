/**
 * End-to-end: bad or awkward input gets a clear message and the contract exit code, and loses
 * nothing — not a repository, an empty change, an unborn branch, unknown provider or flag, a
 * missing provider binary, an invalid config, conflicting target flags, odd file names, CRLF,
 * binary files and a diff beyond the budget.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertFencedDiff, promptOf } from "./_assert.ts";
import {
  entriesOf,
  lastRun,
  listRunDirs,
  readFakeLog,
  repoState,
  runCli,
  writeScenario,
} from "./_cli.ts";
import { withSandbox } from "./_sandbox_scope.ts";

Deno.test("review outside a git repository exits 2 with a clear message", async () => {
  await withSandbox({ "a.txt": "a\n" }, async (sandbox) => {
    const cwd = join(sandbox.dir, "home");
    const result = await runCli(sandbox, ["review"], {
      cwd,
      env: { GIT_CEILING_DIRECTORIES: sandbox.dir },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /^review-gate: Not a git repository: ".*home"\. Run review-gate inside/,
    );
    assert.deepEqual(await readFakeLog(sandbox), []);
  });
});

Deno.test("review of a clean tree is nothing-to-review (exit 0) with no provider call", async () => {
  await withSandbox({ "a.txt": "a\n" }, async (sandbox) => {
    const before = await repoState(sandbox.repo);
    const result = await runCli(sandbox, ["review"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      "review-gate: nothing to review (working tree) — it has no uncommitted changes; to review " +
        "this branch's commits use --base <ref> (e.g. --base main), --commit <rev> or --range A..B\n",
    );
    assert.deepEqual(await readFakeLog(sandbox), []);
    assert.deepEqual(await listRunDirs(sandbox), [], "no run folder for nothing to review");
    assert.deepEqual(await repoState(sandbox.repo), before);
    const json = JSON.parse((await runCli(sandbox, ["review", "--json"])).stdout);
    assert.equal(json.status, "nothing-to-review");
    assert.equal(json.exitCode, 0);
  });
});

Deno.test("review on an unborn branch reviews the untracked files", async () => {
  await withSandbox(undefined, async (sandbox) => {
    await sandbox.repo.write("first.txt", "the very first line\n");
    const before = await repoState(sandbox.repo);
    const result = await runCli(sandbox, ["review"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(result.stdout.startsWith("review-gate: approved"), result.stdout);
    const log = await readFakeLog(sandbox);
    assert.equal(log.length, 1);
    assertFencedDiff(promptOf(log[0]), "+the very first line");
    assert.equal((await lastRun(sandbox)).run.status, "approved");
    assert.deepEqual(await repoState(sandbox.repo), before);
    const commit = await runCli(sandbox, ["review", "--commit", "HEAD"]);
    assert.equal(commit.code, 2);
    assert.equal(
      commit.stderr,
      "review-gate: Cannot review --commit HEAD: this repository has no commits yet; review the working tree (the default) or --staged instead\n",
    );
  });
});

Deno.test("review rejects an unknown provider or flag with exit 2 and the valid choices", async (t) => {
  await withSandbox({ "a.txt": "a\n" }, async (sandbox) => {
    await sandbox.repo.write("a.txt", "b\n");
    await t.step("--provider", async () => {
      const result = await runCli(sandbox, ["review", "--provider", "bard"]);
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        /--provider: Expected "bard" to be one of \(auto\|claude\|codex\|gemini\|qwen\|copilot\|vibe\|opencode\)/,
      );
    });
    await t.step("REVIEW_GATE_PROVIDER", async () => {
      const result = await runCli(sandbox, ["review"], { env: { REVIEW_GATE_PROVIDER: "bard" } });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /REVIEW_GATE_PROVIDER/);
      assert.match(
        result.stderr,
        /"auto", "claude", "codex", "gemini", "qwen", "copilot", "vibe", "opencode"/,
      );
    });
    await t.step("unknown flag", async () => {
      const result = await runCli(sandbox, ["review", "--stagged"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /No flag registered for --stagged/);
      assert.match(result.stderr, /did you mean --staged\?/, "suggests the close flag");
    });
    await t.step("unknown command", async () => {
      const result = await runCli(sandbox, ["reveiw"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /No command registered for `reveiw`, did you mean `review`\?/);
    });
    await t.step("bad --timeout", async () => {
      const result = await runCli(sandbox, ["review", "--timeout", "soon"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /Invalid --timeout "soon"/);
    });
    assert.deepEqual(await readFakeLog(sandbox), [], "no provider was called");
  });
});

Deno.test("review with a missing provider binary exits 3 and says how to install it", async (t) => {
  for (
    const [provider, variable, hint] of [
      ["claude", "REVIEW_GATE_CLAUDE_BIN", "@anthropic-ai/claude-code"],
      ["codex", "REVIEW_GATE_CODEX_BIN", "@openai/codex"],
      ["vibe", "REVIEW_GATE_VIBE_BIN", "mistral-vibe"],
    ]
  ) {
    await t.step(provider, async () => {
      await withSandbox({ "a.txt": "a\n" }, async (sandbox) => {
        await sandbox.repo.write("a.txt", "b\n");
        const result = await runCli(sandbox, ["review", "--provider", provider], {
          env: { [variable]: "/nonexistent/bin/" + provider },
        });
        assert.equal(result.code, 3, result.stdout + result.stderr);
        assert.ok(result.stdout.startsWith("review-gate: NOT reviewed — provider-error"));
        assert.ok(result.stdout.includes(hint), result.stdout);
        assert.ok(result.stdout.includes(variable), result.stdout);
        const run = await lastRun(sandbox);
        assert.equal(run.run.status, "provider-error");
        assert.ok(!run.files.includes("answer.json"));
        assert.deepEqual(await entriesOf(sandbox.tmp), []);
      });
    });
  }
});

Deno.test("review with an invalid .review-gate.json exits 2 naming the key path", async () => {
  const config = JSON.stringify({ budgets: { file_bytes: "big" } });
  await withSandbox({ ".review-gate.json": config, "a.txt": "a\n" }, async (sandbox) => {
    await sandbox.repo.write("a.txt", "b\n");
    const result = await runCli(sandbox, ["review"]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /Invalid config ".*\.review-gate\.json": "budgets\.file_bytes"/);
    assert.deepEqual(await readFakeLog(sandbox), []);
  });
});

Deno.test("review rejects conflicting target flags with exit 2", async () => {
  await withSandbox({ "a.txt": "a\n" }, async (sandbox) => {
    const result = await runCli(sandbox, ["review", "--staged", "--base", "main"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Choose one target: --staged, --base cannot be combined/);
  });
});

Deno.test("review --range takes git's open-ended forms: main.. is main..HEAD, ..feature is HEAD..feature", async () => {
  await withSandbox({ "a.txt": "a\n" }, async (sandbox) => {
    await sandbox.repo.git("checkout", "-q", "-b", "feature");
    await sandbox.repo.write("a.txt", "a\nfeature line\n");
    await sandbox.repo.git("commit", "-qam", "feature");
    const open = await runCli(sandbox, ["review", "--range", "main..", "--json"], {
      scenario: "valid",
    });
    assert.equal(open.code, 0, open.stdout + open.stderr);
    assert.equal(JSON.parse(open.stdout).target.label, "main..HEAD");
    assertFencedDiff(promptOf((await readFakeLog(sandbox))[0]), "+feature line");
    await sandbox.repo.git("checkout", "-q", "main");
    const back = await runCli(sandbox, ["review", "--range", "..feature", "--json"], {
      scenario: "valid",
    });
    assert.equal(back.code, 0, back.stdout + back.stderr);
    assert.equal(JSON.parse(back.stdout).target.label, "HEAD..feature");
    const neither = await runCli(sandbox, ["review", "--range", ".."]);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /Invalid range "\.\.": write it as "A\.\.B" or "A\.\.\.B"/);
  });
});

Deno.test("review handles file names with spaces, quotes, newlines and non-ASCII", async () => {
  const names = [
    "a b.txt",
    `q"uote's.txt`,
    "new\nline.txt",
    "ünïcödé ☃.txt",
    "dir with space/x.ts",
  ];
  await withSandbox({ "a b.txt": "one\n" }, async (sandbox) => {
    await sandbox.repo.write("a b.txt", "one\ntwo\n");
    for (const name of names.slice(1)) await sandbox.repo.write(name, `content of ${name}\n`);
    await sandbox.repo.git("add", "--", "q\"uote's.txt");
    const answer = {
      verdict: "needs-attention",
      summary: "Odd names.",
      findings: names.map((file) => ({
        severity: "medium",
        category: "maintainability",
        scope: "pre-existing-touched",
        title: `Look at ${file}`,
        body: "Check it.",
        file,
        line_start: 1,
        line_end: 1,
        confidence: 0.9,
        recommendation: "Rename it.",
      })),
      next_steps: [],
    };
    const scenario = await writeScenario(sandbox, "names", [{ kind: "valid", answer }]);
    const before = await repoState(sandbox.repo);
    const result = await runCli(sandbox, ["review"], { scenario });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(result.stdout.startsWith("review-gate: needs attention — 5 findings"), result.stdout);
    assert.match(result.stdout, /"new\\nline\.txt":1/, "the name is quoted as in the prompt");
    assert.match(result.stdout, /"q\\"uote's\.txt":1/);
    assert.doesNotMatch(
      result.stdout,
      /^\s*line\.txt/m,
      "no name breaks a line:\n" + result.stdout,
    );
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    for (const name of names) {
      const line = name === "a b.txt"
        ? "+two"
        : name.includes("\n")
        ? "+content of new"
        : `+content of ${name}`;
      assert.ok(prompt.includes(line), `prompt has the content of ${JSON.stringify(name)}`);
    }
    const run = await lastRun(sandbox);
    assert.equal(run.run.status, "needs-attention");
    assert.deepEqual(
      (run.answer as typeof answer).findings.map((f) => f.file).sort(),
      [...names].sort(),
    );
    assert.deepEqual(await repoState(sandbox.repo), before);
  });
});

Deno.test("review keeps CRLF line endings in the prompt and accepts findings on them", async () => {
  await withSandbox({ "win.txt": "one\r\ntwo\r\nthree\r\n" }, async (sandbox) => {
    await sandbox.repo.write("win.txt", "one\r\nTWO\r\nthree\r\nfour\r\n");
    const answer = {
      verdict: "needs-attention",
      summary: "CRLF.",
      findings: [{
        severity: "high",
        category: "style",
        scope: "introduced",
        title: "Shouting",
        body: "TWO is upper case.",
        file: "win.txt",
        line_start: 2,
        line_end: 4,
        confidence: 0.9,
        recommendation: "Lower it.",
      }],
      next_steps: [],
    };
    const scenario = await writeScenario(sandbox, "crlf", [{ kind: "valid", answer }]);
    const before = await repoState(sandbox.repo);
    const result = await runCli(sandbox, ["review"], { scenario });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.ok(result.stdout.includes("win.txt:2-4"));
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assertFencedDiff(prompt, "+TWO\r\n");
    assert.deepEqual(await repoState(sandbox.repo), before);
  });
});

Deno.test("review lists binary files in the prompt without inlining them", async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0x00, 0x42, 0x42, 0x42]);
  await withSandbox({ "logo.png": png, "a.txt": "a\n" }, async (sandbox) => {
    await sandbox.repo.write("logo.png", new Uint8Array([...png, 0, 1, 2, 3]));
    await sandbox.repo.write("a.txt", "b\n");
    const result = await runCli(sandbox, ["review"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assert.ok(prompt.includes('- "logo.png": whole file (binary; 17 B)'), prompt);
    assert.match(prompt, /Coverage: PARTIAL/, "a binary file is not reviewed: coverage is partial");
    assert.match(result.stdout, /WARNING: partially reviewed[^\n]*\n {2}logo\.png: whole file/);
    assert.ok(!prompt.includes("PNG\0"), "binary bytes are not inlined");
    assert.ok(!prompt.includes("\0"), "no NUL byte in the prompt");
    assertFencedDiff(prompt, "+b");
  });
});

Deno.test("review of a diff beyond the budget is partial and names the omitted lines", async () => {
  // ~600 KB of new lines, past the 400 KB prompt budget
  const big = Array.from({ length: 16000 }, (_, i) => `line ${i} of a big generated file`).join(
    "\n",
  );
  await withSandbox({ "small.txt": "small\n" }, async (sandbox) => {
    await sandbox.repo.write("big file.txt", big + "\n");
    await sandbox.repo.write("small.txt", "smaller\n");
    // one call: the rest of the plan's capacity is what --max-calls adds
    const result = await runCli(sandbox, ["review", "--max-calls", "1"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /WARNING: partially reviewed — reviewed [\d,]+ of 16,002 changed lines[^\n]*\n {2}big file\.txt: lines \d+-\d+/,
    );
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assert.ok(prompt.includes("Coverage: PARTIAL"), "the prompt says coverage is partial");
    assert.ok(prompt.includes('- "big file.txt": lines '), "the prompt names the omitted lines");
    const diff = assertFencedDiff(prompt, "+smaller");
    assert.ok(diff.includes("+line 0 of a big"), "what fits is shown");
    const run = await lastRun(sandbox);
    for (const hunk of run.run.coverage?.omitted[0].hunks ?? []) {
      const first = `+line ${hunk.newStart - 1} of a big`;
      assert.ok(!diff.includes(first), `the omitted ${first} is not in the prompt`);
    }
    assert.equal(run.run.coverage?.status, "partial");
    assert.deepEqual(run.run.coverage?.omitted.map((o) => o.path), ["big file.txt"]);
    assert.ok(run.reviewMd?.includes("big file.txt"), "review.md names the omitted lines");
    const json = JSON.parse(
      (await runCli(sandbox, ["review", "--json", "--max-calls", "1"])).stdout,
    );
    assert.equal(json.coverage.status, "partial");
    assert.equal(json.cached, true);
  });
});

Deno.test("review sees a same-size edit made in the same second as the last index write", async () => {
  await withSandbox({ "a.ts": "export const a = 1;\n" }, async (sandbox) => {
    await sandbox.repo.write("a.ts", "export const a = 2;\n");
    // racily clean: the file's mtime equals the index's, and its size is unchanged
    const { mtime } = await Deno.stat(join(sandbox.repo.root, ".git", "index"));
    await Deno.utime(join(sandbox.repo.root, "a.ts"), mtime!, mtime!);
    const result = await runCli(sandbox, ["review"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(result.stdout.startsWith("review-gate: approved"), result.stdout);
    assertFencedDiff(promptOf((await readFakeLog(sandbox))[0]), "+export const a = 2;");
  });
});
