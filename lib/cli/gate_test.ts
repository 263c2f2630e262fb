import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../exec/exec.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import type { CliDeps } from "./deps.ts";
import { run } from "./app.ts";

async function gateRun(cwd: string, args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const sink = { write: (t: string) => void (out += t), isTerminal: false };
  const deps: CliDeps = {
    cwd,
    env: { HOME: cwd },
    stdout: sink,
    stderr: sink,
    readStdin: () => Promise.resolve(new Uint8Array()),
    runner: runProcess,
    now: () => new Date(),
    signal: new AbortController().signal,
    self: { execPath: Deno.execPath() },
  };
  const code = await run(["gate", ...args], deps);
  return { code, out };
}

async function gate(cwd: string, args: string[]): Promise<string> {
  const { code, out } = await gateRun(cwd, args);
  assert.equal(code, 0, out);
  return out;
}

const modeOf = async (p: string) => ((await Deno.lstat(p)).mode ?? 0) & 0o7777;

Deno.test("gate disable edits a symlinked .review-gate.json at its target and keeps the link and mode", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    const shared = join(repo.root, "shared.json");
    await Deno.writeTextFile(shared, '{\n  // team settings\n  "fail_on": "medium"\n}\n');
    await Deno.chmod(shared, 0o644);
    const link = join(repo.root, ".review-gate.json");
    await Deno.symlink("shared.json", link);
    const out = await gate(repo.root, ["disable", "pre-push"]);
    assert.match(out, /pre-push: disabled/);
    // an uncommitted switch cannot turn a push gate off: the user is told what does
    assert.match(out, /this does not switch off the pre-push gate for your pushes/);
    assert.match(out, /review-gate gate disable pre-push --user/);
    assert.match(out, /REVIEW_GATE=0 git push \(or git push --no-verify\)/);
    assert.equal((await Deno.lstat(link)).isSymlink, true);
    const text = await Deno.readTextFile(shared);
    assert.match(text, /\/\/ team settings/);
    assert.match(text, /"pre_push": \{\s*"enabled": false/);
    assert.equal(await modeOf(shared), 0o644);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate enable creates a new .review-gate.json readable by others (0644)", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    const out = await gate(repo.root, ["enable", "all"]);
    const path = join(repo.root, ".review-gate.json");
    assert.equal(await modeOf(path), 0o644);
    // the write is a gate-control change to an agent's next Stop: the user is told what to name
    assert.match(
      out,
      /^note: an agent session's next Stop treats this as a change to its gate; ask for it by name \("\.review-gate\.json", with a verb such as "change" or "ack"\) in your next prompt to it so the change applies$/m,
    );
    // nothing written, nothing to name
    assert.doesNotMatch(await gate(repo.root, ["enable", "all"]), /note:/);
    assert.match(await Deno.readTextFile(path), /"claude_stop": \{\s*"enabled": true/);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate disable and gate enable without a gate name change nothing and exit 2 naming the gates and all", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    for (const verb of ["disable", "enable"]) {
      const { code, out } = await gateRun(repo.root, [verb]);
      assert.equal(code, 2, out);
      assert.match(
        out,
        /Name the gate: choose pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop or all \(e\.g\. "review-gate gate disable pre-push"; never all by default\)/,
      );
      await assert.rejects(Deno.lstat(join(repo.root, ".review-gate.json")), Deno.errors.NotFound);
    }
    assert.match(
      await gate(repo.root, ["disable", "all"]),
      /pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop: disabled/,
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate disable --user names the user config file, by its path, for the agent's next prompt", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    const out = await gate(repo.root, ["disable", "codex-stop", "--user"]);
    const path = join(repo.root, ".config", "review-gate", "config.json");
    assert.match(out, /codex-stop: disabled/);
    assert.ok(
      out.includes(
        `note: an agent session's next Stop treats this as a change to its gate; ask for it by name \("${path}", with a verb such as "change" or "ack"\) in your next prompt to it so the change applies\n`,
      ),
      out,
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate disable --user says which gates stay on because the repository's file enables them itself", async () => {
  const repo = await makeTestRepo({
    "a.ts": "export const a = 1;\n",
    ".review-gate.json": '{ "gates": { "pre_push": { "enabled": true } } }\n',
  });
  try {
    const out = await gate(repo.root, ["disable", "all", "--user"]);
    assert.match(
      out,
      /pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop: disabled/,
    );
    assert.match(
      out,
      /^Note: pre-push stays enabled in this repository: its \.review-gate\.json sets gates\.pre_push\.enabled, which wins over your user config\./m,
    );
    assert.ok(!/Note: (claude|codex)-stop stays/.test(out), `the others take effect: ${out}`);
    const back = await gate(repo.root, ["enable", "pre-push", "--user"]);
    assert.ok(!back.includes("stays"), `enabled here too: ${back}`);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate warn and gate block set the mode, keep the file's other bytes, and say what applies when", async () => {
  const repo = await makeTestRepo({
    "a.ts": "export const a = 1;\n",
    ".review-gate.json":
      '{\n  // team settings\n  "gates": { "pre_push": { "enabled": true } }\n}\n',
  });
  try {
    const path = join(repo.root, ".review-gate.json");
    const warn = await gate(repo.root, ["warn", "pre-push"]);
    assert.match(
      warn,
      /^pre-push: warn mode in ".*\.review-gate\.json": a blocking finding is said as "would block" and the work goes through$/m,
    );
    // warn mode loosens a push: the worktree's file counts once it is on the remote
    assert.match(warn, /^Note: your pushes are not in warn mode yet\./m);
    assert.match(warn, /review-gate gate warn pre-push --user/);
    assert.match(warn, /^note: an agent session's next Stop treats this as a change to its gate/m);
    const text = await Deno.readTextFile(path);
    assert.match(text, /\/\/ team settings/);
    assert.match(text, /"pre_push": \{\s*"enabled": true,\s*"mode": "warn"/);
    const status = await gate(repo.root, ["status"]);
    assert.match(
      status,
      /^modes: pre-push block for your pushes \(the worktree's \.review-gate\.json sets warn, which counts only once that file is on the remote\), claude-stop block, codex-stop block, copilot-stop block, qwen-stop block, gemini-stop block$/m,
    );

    const stops = await gate(repo.root, ["warn", "claude-stop"]);
    assert.doesNotMatch(stops, /your pushes/);
    assert.match(
      await gate(repo.root, ["status"]),
      /^modes: .*claude-stop warn, codex-stop block, copilot-stop block, qwen-stop block, gemini-stop block \(warn: blocking findings are said as "would block"/m,
    );
    const block = await gate(repo.root, ["block", "all"]);
    assert.match(
      block,
      /^pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop: block mode in ".*": blocking findings block$/m,
    );
    assert.match(
      await gate(repo.root, ["status"]),
      /^modes: pre-push block, claude-stop block, codex-stop block, copilot-stop block, qwen-stop block, gemini-stop block$/m,
    );
    // a mistyped name: did you mean, exit 2, nothing written
    const before = await Deno.readTextFile(path);
    const typo = await gateRun(repo.root, ["warn", "pre-pish"]);
    assert.equal(typo.code, 2, typo.out);
    assert.match(typo.out, /Unknown gate "pre-pish" \(did you mean "pre-push"\?\)/);
    assert.equal(await Deno.readTextFile(path), before);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate warn --user applies to pushes at once, and names a repository file that keeps block mode", async () => {
  const repo = await makeTestRepo({
    "a.ts": "export const a = 1;\n",
    ".review-gate.json": '{ "gates": { "claude_stop": { "mode": "block" } } }\n',
  });
  try {
    const out = await gate(repo.root, ["warn", "all", "--user"]);
    assert.match(
      out,
      /pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop: warn mode in ".*config\.json"/,
    );
    assert.doesNotMatch(out, /your pushes are not in warn mode/);
    assert.match(
      out,
      /^Note: claude-stop stays in block mode in this repository: its \.review-gate\.json sets gates\.claude_stop\.mode, which wins over your user config\. To have it in warn mode here, change that file \(review-gate gate warn claude-stop\)\.$/m,
    );
    assert.doesNotMatch(out, /Note: (pre-push|codex-stop) stays/);
    assert.match(
      await gate(repo.root, ["status"]),
      /^modes: pre-push warn, claude-stop block, codex-stop warn, copilot-stop warn, qwen-stop warn, gemini-stop warn \(warn: /m,
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("gate status says each gate that is not installed once: NOT installed, where git looks, how to install", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    const status = await gate(repo.root, ["status"]);
    for (
      const line of status.split("\n").filter((l) => /^(pre-push|claude-stop|codex-stop):/.test(l))
    ) {
      assert.equal(line.match(/not installed/gi)?.length, 1, line);
    }
    assert.match(
      status,
      /^pre-push: enabled; NOT installed, so it never runs \(git runs hooks from ".*\/\.git\/hooks"; run "review-gate install --git"\)$/m,
    );
  } finally {
    await repo.cleanup();
  }
});
