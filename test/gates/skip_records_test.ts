/**
 * End to end: audited skips (README "Skips"). Real `git push`es through the hooks `install` writes
 * — the stub, the stub chaining a foreign hook, the line in husky's `.husky/pre-push` — and Stops
 * through the installed Stop script and through review-gate: every skip a hook can see leaves one
 * record in the per-user `skips.jsonl` (who, when, what), without starting review-gate where the
 * script answers; what no hook sees (`HUSKY=0` under husky) leaves none; `stats` shows them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitToken,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  runHook,
  stopPayload,
} from "./_gates.ts";
import { pushSandbox } from "./_push.ts";
import type { SkipRecord } from "../../lib/store/skips.ts";

const ZERO = "0".repeat(40);

function skipsFile(sb: { env: Record<string, string> }): string {
  return join(sb.env.HOME, ".local", "state", "review-gate", "skips.jsonl");
}

async function skips(sb: { env: Record<string, string> }): Promise<SkipRecord[]> {
  const text = await Deno.readTextFile(skipsFile(sb)).catch(() => "");
  return text.split("\n").filter((l) => l).map((l) => JSON.parse(l));
}

/** The record without its time, which is checked to be a time of the test. */
function timeless(record: SkipRecord, since: number): Omit<SkipRecord, "at"> {
  const { at, ...rest } = record;
  assert.ok(at !== null && Date.parse(at) >= Math.floor(since / 1000) * 1000, `at: ${at}`);
  return rest;
}

/** The one line a push REVIEW_GATE skips prints on stderr (hooks/pre-push-lines.sh). */
const SKIPPED_LINE =
  "review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip is recorded (review-gate stats)";

Deno.test("skips: REVIEW_GATE=0 git push through the stub is recorded by the script; a deletion is not", async () => {
  const { sb, root, started, push } = await pushSandbox();
  try {
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    const tip = await commitToken(sb, "SKIPPED");
    const since = Date.now();
    const r = await push(["feature"], { REVIEW_GATE: "0", USER: "alice" });
    // one line says the push was not reviewed, and that the skip is recorded
    assert.deepEqual([r.code, r.stderr], [0, `${SKIPPED_LINE}\n`]);
    assert.equal(await remoteRef(sb, "refs/heads/feature"), tip);
    const off = await push(["feature:refs/heads/other"], {
      REVIEW_GATE: "Off",
      LOGNAME: "bob",
      CLAUDECODE: "1",
    });
    assert.equal(off.code, 0, off.stderr);
    const deleted = await push(["--delete", "feature"], { REVIEW_GATE: "0" });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.doesNotMatch(
      deleted.stderr,
      /review-gate:/,
      "a deletion has nothing to review: nothing said",
    );
    assert.deepEqual([await started(), await providerCalls(sb)], [0, 0], "review-gate never ran");
    const [first, second, ...rest] = await skips(sb);
    assert.deepEqual(rest, [], "the deletion skipped no review");
    assert.deepEqual(timeless(first, since), {
      gate: "pre-push",
      reason: "env",
      value: "0",
      dir: root,
      remote: "origin",
      refs: [`refs/heads/feature ${tip} refs/heads/feature ${ZERO}`],
      user: "alice",
      via: "hook",
    });
    assert.equal(second.value, "Off");
    assert.equal(second.user, "bob");
    assert.equal(second.agent, "CLAUDECODE");
    assert.deepEqual(second.refs, [`refs/heads/feature ${tip} refs/heads/other ${ZERO}`]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("skips: the stub chaining a foreign hook records the skip after the foreign hook ran", async () => {
  const sb = await makeGateSandbox();
  try {
    const ran = join(sb.dir, "foreign.ran");
    await Deno.writeTextFile(
      join(sb.repo.root, ".git", "hooks", "pre-push"),
      `#!/bin/sh\ncat >/dev/null\necho ran >'${ran}'\n`,
      { mode: 0o755 },
    );
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(sb, "CHAINED");
    const r = await runGit(sb, ["push", "-q", "origin", "feature"], {
      env: { REVIEW_GATE: "0" },
    });
    assert.deepEqual([r.code, r.stderr], [0, `${SKIPPED_LINE}\n`]);
    assert.ok(await Deno.stat(ran), "the foreign hook still runs");
    const records = await skips(sb);
    assert.deepEqual(records.map((s) => [s.gate, s.reason, s.remote, s.via]), [
      ["pre-push", "env", "origin", "hook"],
    ]);
    assert.equal(await providerCalls(sb), 0);
  } finally {
    await sb.cleanup();
  }
});

/** husky 9's layout: core.hooksPath=.husky/_, whose pre-push sources h, which runs .husky/pre-push. */
async function husky9(sb: GateSandbox): Promise<string> {
  const husky = join(sb.repo.root, ".husky");
  await Deno.mkdir(join(husky, "_"), { recursive: true });
  await Deno.writeTextFile(
    join(husky, "_", "h"),
    '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\n' +
      '[ "${HUSKY-}" = "0" ] && exit 0\nsh -e "$s" "$@"\nc=$?\n[ $c != 0 ] && echo "husky - $n script failed (code $c)"\nexit $c\n',
  );
  await Deno.writeTextFile(
    join(husky, "_", "pre-push"),
    '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n',
    {
      mode: 0o755,
    },
  );
  await Deno.writeTextFile(join(husky, "pre-push"), "echo HUSKY_USER_HOOK_RAN >&2\n");
  await gitOk(sb, ["config", "core.hooksPath", ".husky/_"]);
  return join(husky, "pre-push");
}

Deno.test("skips: review-gate's line in .husky/pre-push records REVIEW_GATE=0; HUSKY=0 runs no hook and leaves no record", async () => {
  const sb = await makeGateSandbox();
  try {
    const hook = await husky9(sb);
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    assert.match(await Deno.readTextFile(hook), /pre-push-skip\.sh/);
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    const tip = await commitToken(sb, "HUSKY");
    const husky = await runGit(sb, ["push", "-q", "origin", "feature"], { env: { HUSKY: "0" } });
    assert.equal(husky.code, 0, husky.stderr);
    assert.doesNotMatch(husky.stderr, /HUSKY_USER_HOOK_RAN/, "husky ran no hook at all");
    assert.deepEqual(await skips(sb), [], "nothing of review-gate's ran: nothing is recorded");
    const r = await runGit(sb, ["push", "-q", "origin", "feature:refs/heads/again"], {
      env: { REVIEW_GATE: "0" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /HUSKY_USER_HOOK_RAN/, "the user's commands after our line still run");
    assert.ok(r.stderr.includes(`${SKIPPED_LINE}\n`), r.stderr);
    const records = await skips(sb);
    assert.deepEqual(records.map((s) => [s.gate, s.reason, s.value, s.refs]), [
      ["pre-push", "env", "0", [`refs/heads/feature ${tip} refs/heads/again ${ZERO}`]],
    ]);
    assert.equal(await providerCalls(sb), 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("skips: a push the disabled pre-push gate lets through is recorded by review-gate", async () => {
  const sb = await makeGateSandbox();
  try {
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    assert.equal((await runCli(sb, ["gate", "disable", "pre-push", "--user"])).code, 0);
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    const tip = await commitToken(sb, "DISABLED");
    const since = Date.now();
    const r = await runGit(sb, ["push", "-q", "origin", "feature"], { env: { USER: "carol" } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /NOT reviewed.*disabled/);
    const [record, ...rest] = await skips(sb);
    assert.deepEqual(rest, []);
    assert.deepEqual(timeless(record, since), {
      via: "review-gate",
      gate: "pre-push",
      reason: "disabled",
      where: "gates.pre_push.enabled is false in the user config or environment",
      dir: sb.repo.root,
      repo: join(sb.repo.root, ".git"),
      user: "carol",
      remote: "origin",
      refs: [`refs/heads/feature ${tip} refs/heads/feature ${ZERO}`],
    });
  } finally {
    await sb.cleanup();
  }
});

const STOP_SCRIPT = new URL("../../hooks/turn-stop.sh", import.meta.url).pathname;
const FELL_BACK = "FELL-BACK-TO-REVIEW-GATE";

/** Pipe a Stop payload into the installed Stop script whose review-gate is a marker. */
async function stopScript(
  sb: GateSandbox,
  payload: string,
  env: Record<string, string>,
  gate = "claude-stop",
) {
  const child = new Deno.Command("sh", {
    args: [STOP_SCRIPT, "sh", "-c", `cat >/dev/null; echo ${FELL_BACK}`, "hook", gate],
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

/** The Claude Code plugin's Stop hook: its launcher, as hooks/hooks.json runs it. */
async function launcher(sb: GateSandbox, payload: string, env: Record<string, string>) {
  const child = new Deno.Command(new URL("../../bin/review-gate", import.meta.url).pathname, {
    args: ["hook", "claude-stop", "--source", "plugin"],
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

Deno.test("skips: a Stop REVIEW_GATE skips is recorded by the Stop script, or by review-gate, with its session", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const root = sb.repo.root;
    const since = Date.now();
    // the session started with the switch on: its prompt hook recorded no turn
    const skipped = await stopScript(
      sb,
      stopPayload({ sessionId: "s-skip", cwd: join(root, "src") }),
      {
        REVIEW_GATE: "0",
        USER: "dave",
      },
    );
    assert.deepEqual([skipped.code, skipped.stdout, skipped.stderr], [0, "", ""]);
    // a turn whose start was seen and that changed nothing: the stamp says so
    const prompt = await runHook(
      sb,
      "claude-prompt",
      promptPayload({ sessionId: "s-seen", cwd: root }),
    );
    assert.equal(prompt.code, 0, prompt.stderr);
    const unchanged = await stopScript(sb, stopPayload({ sessionId: "s-seen", cwd: root }), {
      REVIEW_GATE: "0",
    }, "codex-stop");
    assert.deepEqual([unchanged.code, unchanged.stdout], [0, ""]);
    // a value that is no skip switch is the gate on: the script hands the stop to review-gate
    const on = await stopScript(sb, stopPayload({ sessionId: "s-on", cwd: root }), {
      REVIEW_GATE: "1",
    });
    assert.match(on.stdout, new RegExp(FELL_BACK));
    // inside a review child nothing is a skip: the script hands the stop to review-gate
    const child = await stopScript(sb, stopPayload({ sessionId: "s-child", cwd: root }), {
      REVIEW_GATE: "0",
      REVIEW_GATE_CHILD: "1",
    });
    assert.match(child.stdout, new RegExp(FELL_BACK));
    // review-gate itself (a compiled binary's Stop hook has no script in front of it)
    const direct = await runHook(
      sb,
      "claude-stop",
      stopPayload({ sessionId: "s-direct", cwd: root }),
      {
        env: { REVIEW_GATE: "no", USER: "erin" },
      },
    );
    assert.deepEqual([direct.code, direct.stdout, direct.stderr], [0, "", ""]);
    // the Claude Code plugin's launcher hands a switched-off Stop to the same script
    const plugin = await launcher(sb, stopPayload({ sessionId: "s-plugin", cwd: root }), {
      REVIEW_GATE: "0",
    });
    assert.deepEqual([plugin.code, plugin.stdout, plugin.stderr], [0, "", ""]);
    const prompts = await runHook(
      sb,
      "claude-prompt",
      promptPayload({ sessionId: "s-direct", cwd: root }),
      {
        env: { REVIEW_GATE: "0" },
      },
    );
    assert.equal(prompts.code, 0, "a prompt hook skips no review: no record");
    const records = await skips(sb);
    assert.deepEqual(records.map((r) => timeless(r, since)), [
      {
        gate: "claude-stop",
        reason: "env",
        value: "0",
        dir: join(root, "src"),
        session: "s-skip",
        changed: null,
        user: "dave",
        via: "hook",
      },
      {
        gate: "codex-stop",
        reason: "env",
        value: "0",
        dir: root,
        session: "s-seen",
        changed: false,
        user: "",
        via: "hook",
      },
      {
        via: "review-gate",
        gate: "claude-stop",
        reason: "env",
        value: "no",
        dir: root,
        session: "s-direct",
        changed: null,
        user: "erin",
      },
      {
        gate: "claude-stop",
        reason: "env",
        value: "0",
        dir: root,
        session: "s-plugin",
        changed: null,
        user: "",
        via: "hook",
      },
    ]);
    assert.equal(await providerCalls(sb), 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("skips: a Stop of a disabled gate is recorded; stats shows this repository's skips per gate and reason", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const root = sb.repo.root;
    assert.equal((await runCli(sb, ["gate", "disable", "claude-stop"])).code, 0);
    const stop = await runHook(sb, "claude-stop", stopPayload({ sessionId: "s-off", cwd: root }), {
      env: { USER: "frank" },
    });
    assert.deepEqual([stop.code, stop.stdout], [0, ""]);
    const [disabled] = await skips(sb);
    assert.deepEqual(
      [disabled.gate, disabled.reason, disabled.where, disabled.session, disabled.repo],
      [
        "claude-stop",
        "disabled",
        "the claude-stop gate is disabled in the config",
        "s-off",
        join(root, ".git"),
      ],
    );
    // records of this repository (its root, a directory below it), of another, and a bad line
    const other = await Deno.makeTempDir({ dir: sb.dir });
    await Deno.mkdir(join(other, ".git"));
    const line = (r: Partial<SkipRecord>) =>
      JSON.stringify({ gate: "pre-push", reason: "env", ...r });
    await Deno.writeTextFile(
      skipsFile(sb),
      [
        line({ at: "2026-11-01T10:00:00Z", value: "0", dir: root, user: "gina" }),
        line({ at: "2026-12-02T10:00:00Z", value: "0", dir: join(root, "src"), user: "hal" }),
        line({ at: "2026-12-02T11:00:00Z", value: "0", dir: other, user: "ivy" }),
        "{not json",
      ].join("\n") + "\n",
      { append: true },
    );
    const text = await runCli(sb, ["stats"]);
    assert.equal(text.code, 0, text.stderr);
    const when = `${disabled.at!.slice(0, 16).replace("T", " ")} UTC`;
    assert.equal(
      text.stdout.slice(text.stdout.indexOf("skipped without a review")),
      [
        `skipped without a review: 3 (2026-11-01 10:00 UTC to ${when})`,
        "  gate         reason         count  last                  who",
        `  claude-stop  gate disabled      1  ${when}  frank`,
        "  pre-push     REVIEW_GATE=0      2  2026-12-02 10:00 UTC  gina, hal",
        "  (git push --no-verify, and HUSKY=0 under husky, run no hook of review-gate's: never counted)",
        "  1 line(s) of the skip records could not be read",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      (await runCli(sb, ["stats", "--json", "--since", "2026-12-01"])).stdout,
    );
    assert.deepEqual(
      [
        json.skips.total,
        json.skips.groups.map((g: { gate: string; count: number }) => [g.gate, g.count]),
      ],
      [2, [["claude-stop", 1], ["pre-push", 1]]],
    );
    assert.deepEqual(json.skips.records.map((r: SkipRecord) => r.user), ["frank", "hal"]);
    assert.equal(json.skips.unreadable, 1);
  } finally {
    await sb.cleanup();
  }
});
