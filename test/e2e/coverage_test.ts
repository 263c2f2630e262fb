/**
 * End-to-end: what `review-gate review` shows the model, and says it showed, for changes git
 * reports in unusual ways — type changes, text in other encodings, binary-only changes, one file
 * larger than the prompt budget — in throwaway repositories with the fake provider.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lastRun, makeSandbox, readFakeLog, runCli, type Sandbox } from "./_cli.ts";
import { assertFencedDiff, promptOf } from "./_assert.ts";

/** UTF-16LE bytes with a byte-order mark. */
function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    out[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    out[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  return out;
}

async function withSandbox(
  files: Record<string, string | Uint8Array>,
  body: (sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await makeSandbox(files);
  try {
    await body(sandbox);
  } finally {
    await sandbox.cleanup();
  }
}

Deno.test("review reviews a symlink that became a file (a type change) instead of failing", async () => {
  await withSandbox({ "target.txt": "t\n" }, async (sandbox) => {
    await Deno.symlink("target.txt", join(sandbox.repo.root, "config"));
    await sandbox.repo.git("add", "-A");
    await sandbox.repo.git("commit", "-qm", "link");
    await Deno.remove(join(sandbox.repo.root, "config"));
    await sandbox.repo.write("config", "REAL_FILE_CONTENT\n");
    const result = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "approved");
    assert.equal(json.coverage.status, "complete");
    const [call] = await readFakeLog(sandbox);
    const diff = assertFencedDiff(promptOf(call), "+REAL_FILE_CONTENT");
    assert.match(diff, /deleted file mode 120000[\s\S]*-target\.txt/);
    // the same change committed, as a commit target
    await sandbox.repo.git("commit", "-qam", "typechange");
    const commit = await runCli(sandbox, ["review", "--commit", "HEAD"], { scenario: "valid" });
    assert.equal(commit.code, 0, commit.stdout + commit.stderr);
    assert.match(commit.stdout, /^review-gate: approved/);
  });
});

Deno.test("review shows a UTF-16LE PowerShell script with CRLF decoded, and coverage is complete", async () => {
  const before = 'Write-Host "hello"\r\nGet-Item .\r\n';
  const after = 'Write-Host "hello"\r\nRemove-Item -Recurse -Force C:\\\r\nGet-Item .\r\n';
  await withSandbox({ "deploy.ps1": utf16le(before) }, async (sandbox) => {
    await sandbox.repo.write("deploy.ps1", utf16le(after));
    const result = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.coverage.status, "complete");
    assert.equal(json.coverage.reviewedLines, 1);
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assertFencedDiff(prompt, "+Remove-Item -Recurse -Force C:\\\r\n");
    assert.match(
      prompt,
      /Shown decoded to UTF-8[^\n]*\n- "deploy\.ps1" \(UTF-16LE with CRLF line ends\)/,
    );
  });
});

Deno.test("review shows text that is not UTF-8 as windows-1252 instead of losing it", async () => {
  await withSandbox({ "legacy.txt": new Uint8Array([0x61, 0x0a]) }, async (sandbox) => {
    await sandbox.repo.write("legacy.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const result = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assertFencedDiff(prompt, "+café\n");
    assert.match(prompt, /- "legacy\.txt" \(windows-1252\)/);
  });
});

Deno.test("review of a change with nothing to show is NOT reviewed (exit 3), never approved, no model call", async () => {
  await withSandbox({ "logo.png": new Uint8Array([0x89, 0x50, 0, 1]) }, async (sandbox) => {
    await sandbox.repo.write("logo.png", new Uint8Array([0x89, 0x50, 0, 2, 3]));
    const result = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /^review-gate: NOT reviewed — none of this change could be shown to the model \(no model call\)/,
    );
    assert.match(result.stdout, /logo\.png: whole file \(binary; 5 B\)/);
    assert.doesNotMatch(result.stdout, /approved/);
    assert.equal((await readFakeLog(sandbox)).length, 0, "the model was not asked");
    const run = await lastRun(sandbox);
    assert.equal(run.run.status, "not-reviewed");
    assert.match(run.run.message ?? "", /nothing in this change could be shown to the model/);
    assert.equal(run.answer, undefined);
    const json = JSON.parse((await runCli(sandbox, ["review", "--json"])).stdout);
    assert.equal(json.status, "not-reviewed");
    assert.equal(json.exitCode, 3);
    assert.equal(json.answer, null);
    assert.equal(json.coverage.reviewedBytes, 0);
  });
});

Deno.test("review of a file over the budget shows the hunks that fit and says how much it reviewed", async () => {
  const lines = Array.from({ length: 6000 }, (_, i) => `const line${i + 1} = ${i};`);
  await withSandbox({ "big.ts": lines.join("\n") + "\n" }, async (sandbox) => {
    // 3,000 changed lines in 30 hunks; a 32 KiB prompt budget holds a few of them
    const edited = lines.map((l, i) => (Math.floor(i / 100) % 2 === 0 ? `${l} // edited` : l));
    await sandbox.repo.write("big.ts", edited.join("\n") + "\n");
    await sandbox.repo.write(
      ".review-gate.json",
      JSON.stringify({ budgets: { file_bytes: 16384, total_bytes: 32768 }, max_calls: 1 }),
    );
    await sandbox.repo.git("add", ".review-gate.json");
    await sandbox.repo.git("commit", "-qm", "config");
    const result = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^review-gate: approved/);
    const amount = result.stdout.match(
      /WARNING: partially reviewed — reviewed ([\d,]+) of 6,000 changed lines \(([\d.]+) KB of/,
    );
    assert.ok(amount, result.stdout);
    const reviewed = Number(amount[1].replace(/,/g, ""));
    assert.ok(reviewed > 0 && reviewed < 6000, `${reviewed}`);
    assert.match(result.stdout, /big\.ts: lines \d+-\d+, lines \d+-\d+/);
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assert.match(prompt, /Coverage: PARTIAL \(reviewed [\d,]+ of 6,000 changed lines/);
    assert.match(prompt, /- "big\.ts": lines \d+-\d+/);
    assertFencedDiff(prompt, "// edited");
    const run = await lastRun(sandbox);
    assert.equal(run.run.coverage?.status, "partial");
    assert.equal(run.run.coverage?.reviewedLines, reviewed);
    assert.equal(run.run.coverage!.reviewedLines + run.run.coverage!.omittedLines, 6000);
    assert.ok(run.run.coverage!.omitted[0].hunks!.length > 0);
    assert.match(
      run.reviewMd ?? "",
      /- Coverage: partial — reviewed [\d,]+ of 6,000 changed lines/,
    );
    assert.match(run.reviewMd ?? "", /- not reviewed: big\.ts: lines \d+-\d+/);
  });
});

Deno.test("review ignores a linked worktree inside the checkout (claude -w): no change, no model call", async () => {
  await withSandbox({ "a.ts": "export const a = 1;\n" }, async (sandbox) => {
    await sandbox.repo.git("worktree", "add", "-q", ".claude/worktrees/agent-1", "-b", "agent-1");
    await sandbox.repo.write(".claude/worktrees/agent-1/b.ts", "export const b = 1;\n");
    await sandbox.repo.git("-C", ".claude/worktrees/agent-1", "add", "b.ts");
    await sandbox.repo.git("-C", ".claude/worktrees/agent-1", "commit", "-qm", "other session");
    const idle = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(idle.code, 0, idle.stdout + idle.stderr);
    assert.match(idle.stdout, /^review-gate: nothing to review/);
    // left out, and named even when nothing else changed
    assert.match(
      idle.stdout,
      /Not part of this change \(left out\): \.claude\/worktrees\/agent-1 \(linked worktree\)/,
    );
    assert.equal((await readFakeLog(sandbox)).length, 0, "no model call");
    await sandbox.repo.write("a.ts", "export const a = 2;\n");
    const result = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.coverage.status, "complete", "a linked worktree is no submodule");
    assert.deepEqual(json.coverage.omitted, []);
    assert.deepEqual(json.coverage.excluded, [
      { path: ".claude/worktrees/agent-1", reason: "linked-worktree" },
    ]);
    const prompt = promptOf((await readFakeLog(sandbox))[0]);
    assert.doesNotMatch(prompt, /agent-1|Subproject/);
  });
});

Deno.test("review names a nested repository it leaves out when nothing else changed", async () => {
  await withSandbox({ "a.ts": "export const a = 1;\n" }, async (sandbox) => {
    await sandbox.repo.git("init", "-q", "vendor/lib");
    await sandbox.repo.write("vendor/lib/evil.ts", "export const e = 1;\n");
    const r = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(
      r.stdout,
      "review-gate: nothing to review (working tree) — Not part of this change (left out): " +
        "vendor/lib (nested repository)\n",
    );
    assert.equal((await readFakeLog(sandbox)).length, 0, "no model call");
  });
});
