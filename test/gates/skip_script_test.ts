/**
 * The skip records' shell half (`hooks/skip-record.sh`, `review_gate_skip_push` of
 * `hooks/pre-push-lines.sh`) under every shell the fast paths run in (docs/design.md "Platforms":
 * dash, bash --posix, the system sh): the JSON it writes is the JSON review-gate writes for the same
 * push (lib/gates/skip_record.ts), whatever bytes the values hold, and the switch reads as
 * lib/gates/hook_io.ts reads it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pushSkip } from "../../lib/gates/skip_record.ts";
import { reviewGateSkips } from "../../lib/gates/hook_io.ts";

const HOOKS = new URL("../../hooks/", import.meta.url).pathname;
const SHELLS = [["dash"], ["bash", "--posix"], ["sh"]].filter((cmd) => {
  try {
    return new Deno.Command(cmd[0], { args: ["-c", ":"] }).outputSync().success;
  } catch {
    return false;
  }
});

async function sh(
  shell: string[],
  script: string,
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<string> {
  const out = await new Deno.Command(shell[0], {
    args: [
      ...shell.slice(1),
      "-c",
      `. '${HOOKS}pre-push-lines.sh'; . '${HOOKS}skip-record.sh'; ${script}`,
    ],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    clearEnv: true,
    cwd: options.cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  assert.ok(out.success, text.decode(out.stderr));
  return text.decode(out.stdout);
}

const ODD = [
  "plain",
  'a "quoted" path',
  "back\\slash",
  "tab\there",
  "new\nline",
  "\u0001\u001f\u007f",
  "é ü 日本",
  "",
];

Deno.test("review_gate_json() writes any value as the JSON string of it", async () => {
  for (const shell of SHELLS) {
    for (const value of ODD) {
      const out = await sh(shell, 'review_gate_json "$V"; printf "%s" "$review_gate_json"', {
        env: { V: value, LC_ALL: "C.UTF-8" },
      });
      assert.equal(JSON.parse(out), value, `${shell.join(" ")}: ${JSON.stringify(value)}`);
    }
  }
});

Deno.test("review_gate_switched_off() is REVIEW_GATE's skip switch exactly as review-gate reads it", async () => {
  const values = ["0", " 0 ", "false", "OFF", "No", "\toff\n", "1", "", "00", "nope", "0 1"];
  for (const shell of SHELLS) {
    for (const value of values) {
      const out = await sh(shell, "review_gate_switched_off && echo on || echo off", {
        env: { REVIEW_GATE: value },
      });
      const expected = reviewGateSkips({ REVIEW_GATE: value }) ? "on" : "off";
      assert.equal(out.trim(), expected, `${shell.join(" ")}: ${JSON.stringify(value)}`);
    }
  }
});

Deno.test("the scripts' push record is review-gate's push record, field for field", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const cwd = join(dir, 'my "repo" dir');
    await Deno.mkdir(cwd);
    const a = "a".repeat(40);
    const lines = Array.from(
      { length: 21 },
      (_, i) => `refs/heads/b"${i} ${a} refs/heads/b"${i} ${"0".repeat(40)}`,
    ).join("\n");
    for (const shell of SHELLS) {
      const state = join(dir, shell[0]);
      const env = {
        XDG_STATE_HOME: state,
        USER: "al\\ice",
        REVIEW_GATE: "0",
        GIT_DIR: join(cwd, ".git"),
        CODEX_SANDBOX: "seatbelt",
        PWD: cwd,
        L: lines,
      };
      await sh(shell, 'lines=$L; review_gate_skip_push "https://me:tok@host/r.git"', { env, cwd });
      const text = await Deno.readTextFile(join(state, "review-gate", "skips.jsonl"));
      assert.equal(text.split("\n").length, 2, "one line");
      const written = JSON.parse(text);
      assert.match(written.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(written.via, "hook");
      const ours = pushSkip(
        { env, cwd, now: new Date(written.at) },
        { lines, remote: "https://me:tok@host/r.git" },
        { reason: "env", value: "0" },
      );
      assert.deepEqual({ ...written, at: ours.at, via: undefined }, { ...ours, via: undefined });
      const mode = (await Deno.stat(join(state, "review-gate", "skips.jsonl"))).mode! & 0o777;
      assert.equal(mode, 0o600);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the Stop script reads the switch as review-gate does before it records (or hands over)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const payload = JSON.stringify({ session_id: "s", cwd: dir, hook_event_name: "Stop" });
    for (const value of ["0", " 0 ", "false", "OFF", "No", "\toff\n", "1", "00", "nope"]) {
      const out = await new Deno.Command("sh", {
        args: [
          `${HOOKS}turn-stop.sh`,
          "sh",
          "-c",
          "cat >/dev/null; echo HANDED",
          "hook",
          "claude-stop",
        ],
        env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir, REVIEW_GATE: value },
        clearEnv: true,
        cwd: dir,
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = out.stdin.getWriter();
      await writer.write(new TextEncoder().encode(payload));
      await writer.close();
      const stdout = new TextDecoder().decode((await out.output()).stdout).trim();
      const expected = reviewGateSkips({ REVIEW_GATE: value }) ? "" : "HANDED";
      assert.equal(stdout, expected, JSON.stringify(value));
    }
    const lines = await Deno.readTextFile(join(dir, ".local/state/review-gate/skips.jsonl"));
    assert.equal(lines.trim().split("\n").length, 6);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("review_gate_skip_push() says in one stderr line that the push was NOT reviewed, and whether it was recorded", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const blocker = join(dir, "a-file");
    await Deno.writeTextFile(blocker, "");
    for (const shell of SHELLS) {
      const run = async (state: string) => {
        const out = await new Deno.Command(shell[0], {
          args: [
            ...shell.slice(1),
            "-c",
            `. '${HOOKS}pre-push-lines.sh'; . '${HOOKS}skip-record.sh'; lines=$L; review_gate_skip_push origin`,
          ],
          env: {
            PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
            XDG_STATE_HOME: state,
            REVIEW_GATE: "0",
            L: `refs/heads/a ${"a".repeat(40)} refs/heads/a ${"0".repeat(40)}`,
          },
          clearEnv: true,
          cwd: dir,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder();
        return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
      };
      const recorded = await run(join(dir, shell[0]));
      assert.deepEqual(recorded, {
        code: 0,
        stdout: "",
        stderr:
          "review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip is recorded (review-gate stats)\n",
      });
      // a state folder that cannot be made: said, and the push still goes ahead unrecorded
      const lost = await run(join(blocker, "state"));
      assert.equal(lost.code, 0, shell.join(" "));
      assert.equal(
        lost.stderr,
        `review-gate: could not record this skip in ${blocker}/state/review-gate/skips.jsonl\n` +
          "review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip could not be recorded\n",
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
