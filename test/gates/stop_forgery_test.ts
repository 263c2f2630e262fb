/**
 * End to end: the turn gate's own state cannot be forged into an allow (README "Security model").
 * An agent that cannot read the user's key rewrites what the installed Stop script and
 * review-gate read — the stop stamp (`~/.local/state/review-gate/anchors/<sid>.stop`) made to
 * match the worktree after its edit, a stamp copied from another session or made under another
 * user's key, a stamp with one byte changed, the session's baseline or last verdict moved to the
 * edited tree, a session record copied from another session or repository or cut short — and no
 * stop is allowed silently: the script hands over to review-gate, which reviews the turn (the fake
 * blocks) or, when the session record does not verify, says the turn was NOT reviewed and names
 * the record it ignored.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  type CliResult,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runGit,
  runHook,
  type Sandbox,
  stopDecision,
  stopPayload,
} from "./_gates.ts";
import { MAIN } from "../e2e/_cli.ts";

const SCRIPT = new URL("../../hooks/turn-stop.sh", import.meta.url).pathname;
const FELL_BACK = "FELL-BACK-TO-REVIEW-GATE";
/** A fallback that proves the script did not answer by itself. */
const MARKER = ["sh", "-c", `cat >/dev/null; echo ${FELL_BACK}`];
const REVIEW_GATE = [
  Deno.execPath(),
  "run",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  MAIN,
  "hook",
  "claude-stop",
];

/** Pipe a payload into the script with `fallback` as the review-gate command. */
async function stopScript(
  sb: Sandbox,
  payload: string,
  fallback: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = new Deno.Command("sh", {
    args: [SCRIPT, ...fallback],
    cwd: sb.repo.root,
    env: { ...sb.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

async function setup() {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const blocking = { REVIEW_GATE_FAKE_SCENARIO: await blockingScenario(sb) };
  const anchors = join(sb.env.HOME, ".local", "state", "review-gate", "anchors");
  const sessions = join(root, ".git", "review-gate", "sessions");
  const prompt = async (sessionId: string, env: Record<string, string> = {}) => {
    const p = await runHook(sb, "claude-prompt", promptPayload({ sessionId, cwd: root }), { env });
    assert.deepEqual([p.code, p.stdout, p.stderr], [0, "", ""]);
  };
  const stop = (sessionId: string, fallback: string[]) =>
    stopScript(sb, stopPayload({ sessionId, cwd: root }), fallback, blocking);
  const stopGate = (sessionId: string) =>
    runHook(sb, "claude-stop", stopPayload({ sessionId, cwd: root }), { env: blocking });
  /** The worktree's tree as review-gate records it (`git add -A` into a copy of the index). */
  const currentTree = async () => {
    const index = join(sb.dir, "forge-index");
    await Deno.copyFile(join(root, ".git", "index"), index);
    await runGit(sb, ["add", "-A"], { env: { GIT_INDEX_FILE: index } });
    return (await runGit(sb, ["write-tree"], { env: { GIT_INDEX_FILE: index } })).stdout.trim();
  };
  return { sb, root, anchors, sessions, prompt, stop, stopGate, currentTree };
}

/** Read a session record or anchor as the agent sees it (sealed files keep the value inside). */
async function editJson(path: string, edit: (value: Record<string, unknown>) => void) {
  const file = JSON.parse(await Deno.readTextFile(path));
  edit(file.value ?? file);
  await Deno.writeTextFile(path, JSON.stringify(file));
}

Deno.test("Stop script: a stop stamp the agent forges, copies or edits never allows", async (t) => {
  const { sb, root, anchors, sessions, prompt, stop, currentTree } = await setup();
  /** The script hands the stop over, and review-gate reviews the turn and blocks it. */
  const reviewed = async (sessionId: string) => {
    const fast = await stop(sessionId, MARKER);
    assert.match(fast.stdout, new RegExp(FELL_BACK), "the script did not allow by itself");
    const calls = await providerCalls(sb);
    const s = await stop(sessionId, REVIEW_GATE);
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
    assert.ok(await providerCalls(sb) > calls, "review-gate asked the model about the turn");
  };
  try {
    await t.step("the stamp's baseline tree rewritten to the edited worktree", async () => {
      await prompt("forge-tree");
      const file = JSON.parse(await Deno.readTextFile(join(sessions, "forge-tree.json")));
      const baseline = (file.value ?? file).baselineTree;
      await addTokenLine(root, "FORGED");
      const now = await currentTree();
      const path = join(anchors, "forge-tree.stop");
      await Deno.writeTextFile(
        path,
        (await Deno.readTextFile(path)).replaceAll(baseline, now),
      );
      await reviewed("forge-tree");
      await gitOk(sb, ["checkout", "--", "src/app.ts"]);
    });
    await t.step("a stamp recorded for another session at the edited state", async () => {
      await prompt("victim");
      await addTokenLine(root, "COPIED");
      // a session whose turn starts from the edited worktree: the attacker keeps the other
      // sessions' records and anchors out of its sight while it starts, so it takes over nothing
      // and is stamped
      const aside: string[] = [];
      for (const dir of [sessions, anchors]) {
        for await (const entry of Deno.readDir(dir)) {
          if (entry.name.endsWith(".json")) aside.push(join(dir, entry.name));
        }
      }
      for (const path of aside) await Deno.rename(path, `${path}.aside`);
      await prompt("oracle");
      for (const path of aside) await Deno.rename(`${path}.aside`, path);
      await Deno.copyFile(join(anchors, "oracle.stop"), join(anchors, "victim.stop"));
      await reviewed("victim");
      await gitOk(sb, ["checkout", "--", "src/app.ts"]);
    });
    await t.step("a stamp recorded under another user's key", async () => {
      await prompt("two-homes");
      await addTokenLine(root, "OTHER-KEY");
      const other = join(sb.dir, "other-state");
      // the same session recorded by another user (another key) from the edited worktree
      await prompt("two-homes-other", { XDG_STATE_HOME: other });
      await Deno.copyFile(
        join(other, "review-gate", "anchors", "two-homes-other.stop"),
        join(anchors, "two-homes.stop"),
      );
      const fast = await stop("two-homes", MARKER);
      assert.match(fast.stdout, new RegExp(FELL_BACK));
      await gitOk(sb, ["checkout", "--", "src/app.ts"]);
    });
    await t.step("one byte of an unchanged turn's stamp changed", async () => {
      await prompt("one-byte");
      const path = join(anchors, "one-byte.stop");
      const lines = (await Deno.readTextFile(path)).split("\n");
      lines[1] = lines[1].replace(/.$/, (c) => c === "0" ? "1" : "0");
      await Deno.writeTextFile(path, lines.join("\n"));
      assert.match((await stop("one-byte", MARKER)).stdout, new RegExp(FELL_BACK));
    });
    await t.step("a garbled or missing key", async () => {
      await prompt("no-key");
      assert.equal((await stop("no-key", MARKER)).stdout, "", "an unchanged turn: allowed");
      const key = join(sb.env.HOME, ".local", "state", "review-gate", "key");
      const text = await Deno.readTextFile(key);
      await Deno.writeTextFile(key, "not a key\n");
      assert.match((await stop("no-key", MARKER)).stdout, new RegExp(FELL_BACK));
      await Deno.remove(key);
      assert.match((await stop("no-key", MARKER)).stdout, new RegExp(FELL_BACK));
      await Deno.writeTextFile(key, text, { mode: 0o600 });
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate: a session record the agent rewrites is absent, and named", async (t) => {
  const { sb, root, anchors, sessions, prompt, stopGate, currentTree } = await setup();
  /** The stop does not allow silently: it says the turn was NOT reviewed and names the record. */
  const named = async (sessionId: string) => {
    await Deno.remove(join(anchors, `${sessionId}.stop`)).catch(() => {});
    const s = await stopGate(sessionId);
    assert.notEqual(s.stdout.trim(), "", `not a silent allow: ${s.stderr}`);
    const answer = stopDecision(s.stdout) ?? {};
    const text = String(answer.reason ?? answer.systemMessage ?? "");
    assert.match(text, /NOT reviewed/);
    assert.match(text, /turn record .*did not verify/);
  };
  try {
    await t.step("the baseline moved to the edited worktree", async () => {
      await prompt("baseline");
      await addTokenLine(root, "BASELINE");
      const tree = await currentTree();
      await editJson(join(sessions, "baseline.json"), (v) => v.baselineTree = tree);
      await named("baseline");
      await gitOk(sb, ["checkout", "--", "src/app.ts"]);
    });
    await t.step("the last verdict rewritten to approve the edited tree", async () => {
      await prompt("verdict");
      await addTokenLine(root, "VERDICT");
      const tree = await currentTree();
      await editJson(join(sessions, "verdict.json"), (v) => {
        v.lastBaseline = v.baselineTree;
        v.lastTree = tree;
        v.lastVerdict = { status: "approved", runDir: "", blocking: [] };
      });
      await named("verdict");
      await gitOk(sb, ["checkout", "--", "src/app.ts"]);
    });
    await t.step("another session's record copied over this one's", async () => {
      await prompt("mine");
      await addTokenLine(root, "COPY");
      await prompt("theirs"); // its baseline is the edited worktree
      await Deno.copyFile(join(sessions, "theirs.json"), join(sessions, "mine.json"));
      await named("mine");
      await gitOk(sb, ["checkout", "--", "src/app.ts"]);
    });
    await t.step("the same session's record from another repository", async () => {
      const other = await makeGateSandbox({ remote: false });
      // the same user (one key), its own anchors folder so this repository's anchor stays
      const otherState = join(sb.dir, "cross-state", "review-gate");
      await Deno.mkdir(otherState, { recursive: true });
      const key = join(sb.env.HOME, ".local", "state", "review-gate", "key");
      await Deno.copyFile(key, join(otherState, "key")).catch(() => {}); // no key on the old code
      try {
        await prompt("cross-repo");
        await addTokenLine(root, "CROSS");
        await Deno.writeTextFile(
          join(other.repo.root, "src", "app.ts"),
          await Deno.readTextFile(join(root, "src", "app.ts")),
        );
        const p = await runHook(
          other,
          "claude-prompt",
          promptPayload({ sessionId: "cross-repo", cwd: other.repo.root }),
          { env: { XDG_STATE_HOME: join(sb.dir, "cross-state") } },
        );
        assert.equal(p.code, 0, p.stderr);
        await Deno.copyFile(
          join(other.repo.root, ".git", "review-gate", "sessions", "cross-repo.json"),
          join(sessions, "cross-repo.json"),
        );
        await named("cross-repo");
        await gitOk(sb, ["checkout", "--", "src/app.ts"]);
      } finally {
        await other.cleanup();
      }
    });
    await t.step("the record cut short", async () => {
      await prompt("cut");
      const path = join(sessions, "cut.json");
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, text.slice(0, text.length - 20));
      await named("cut");
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate: a cached answer rewritten to approve is reviewed again, and named", async () => {
  const sb = await makeGateSandbox();
  const root = sb.repo.root;
  try {
    const blocking = { REVIEW_GATE_FAKE_SCENARIO: await blockingScenario(sb) };
    const session = { sessionId: "cached", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await addTokenLine(root, "CACHED-BUG");
    // the turn's stop reviews the change and blocks: its verdict is cached
    const first = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
    assert.equal(stopDecision(first.stdout)?.decision, "block", first.stdout + first.stderr);
    // the agent rewrites every cached answer that blocks into an approval, and makes the next
    // stop review the change afresh (a write and its undo: the last verdict is for another tree)
    const cache = join(root, ".git", "review-gate", "cache");
    for await (const e of Deno.readDir(cache)) {
      if (!e.name.endsWith(".json")) continue;
      await editJson(join(cache, e.name), (entry) => {
        const record = entry.record as Record<string, unknown>;
        const answer = entry.answer as Record<string, unknown>;
        if (record?.status !== "needs-attention") return;
        record.status = "approved";
        record.blocking = 0;
        answer.verdict = "approve";
        answer.findings = [];
      });
    }
    const app = join(root, "src", "app.ts");
    const text = await Deno.readTextFile(app);
    await Deno.writeTextFile(app, `${text}// more\n`);
    await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
    await Deno.writeTextFile(app, text);
    const calls = await providerCalls(sb);
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
    assert.equal(await providerCalls(sb), calls + 1, "reviewed again: the model was asked");
    assert.match(String(stopDecision(s.stdout)?.reason), /cached verdict .*did not verify/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate: a stop claim the agent creates ahead of the hook does not skip the review", async () => {
  const { sb, root, sessions } = await setup();
  try {
    const session = { sessionId: "claimed", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await addTokenLine(root, "CLAIMED");
    // the agent reads its own transcript: the event key of the coming stop is known to it
    const transcript = join(sb.dir, "transcript.jsonl");
    await Deno.writeTextFile(
      transcript,
      JSON.stringify({ type: "assistant", uuid: "a-last", message: {} }) + "\n",
    );
    const payload = { ...JSON.parse(stopPayload(session)), transcript_path: transcript };
    const key = JSON.stringify(["claimed", "Stop", payload.prompt_id, "a-last"]);
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const claims = join(sessions, "claimed.claims");
    await Deno.mkdir(claims, { recursive: true });
    await Deno.writeTextFile(join(claims, `${digest}.json`), '{"source":"plugin"}');
    await Deno.writeTextFile(join(claims, "twice-noted"), "");
    const s = await runHook(sb, "claude-stop", JSON.stringify(payload), {
      env: { REVIEW_GATE_FAKE_SCENARIO: await blockingScenario(sb) },
    });
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
    assert.equal(await providerCalls(sb), 1);
  } finally {
    await sb.cleanup();
  }
});
