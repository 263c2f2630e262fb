/**
 * (c) the installed hooks on the paths users hit after every turn and push, each beside its floor
 * in a small committed repository where `review-gate install --git --claude` put the hooks:
 *
 * - **Stop hook, turn changed nothing**: the Stop command exactly as installed in
 *   `.claude/settings.local.json`, run with `sh -c` as Claude Code runs it, against an empty
 *   `deno run` (the least any hook written in Deno costs). The row fails if the hook prints
 *   anything, and proves the script answered alone: the session's state file (which review-gate
 *   rewrites on every stop it answers) is untouched. The `hook claude-stop` row is review-gate's
 *   own answer to the same stop.
 * - **push + delete**: `git push` of a branch whose commits were reviewed before (the remote's
 *   branch at main's tip, so the hook replays the push stamp of the same push last time: a new
 *   branch is never replayed), then `git push --delete` of it, through the installed pre-push hook,
 *   against the same two pushes through a hook that does nothing; a third push, `--no-verify` in
 *   both rows, puts the remote's branch back at main's tip. The row proves the verdict came from
 *   the cache (the hook says so, and no review ran: the fake provider's log and the runs folder did
 *   not grow).
 * - **skips**: the same Stop command and the same pushes with `REVIEW_GATE=0`, the user's skip
 *   switch (docs/design.md "Skip records"): a Stop of a session whose start was skipped too (no stamp
 *   of its turn), and the pushes through the installed hook. Each proves that nothing was reviewed
 *   and nothing printed.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, CaseFactory } from "./case_types.ts";
import { DENO_RUN } from "./case_types.ts";
import { git as benchGit } from "./gen_repo.ts";

async function git(cwd: string, args: string[]): Promise<string> {
  return new TextDecoder().decode(await benchGit(cwd, args)).trim();
}

async function run(
  cmd: string[],
  options: { cwd: string; stdin?: string; env: Record<string, string> },
): Promise<string> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: options.cwd,
    env: options.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd.join(" ")} failed in ${options.cwd}:\n${text}`);
  return text;
}

/** Lines in a file (0 when it is missing). */
async function lineCount(path: string): Promise<number> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l !== "").length;
}

async function entries(dir: string): Promise<number> {
  let n = 0;
  for await (const _ of Deno.readDir(dir)) n++;
  return n;
}

/** The hook cases; their repository is made in `setup` under the bench's temp dir. */
export const hookCases: CaseFactory = (ctx) => {
  const repo = join(ctx.tmp, "hooks-repo");
  const remote = join(ctx.tmp, "hooks-remote.git");
  const noop = join(ctx.tmp, "noop-hooks");
  const session = join(repo, ".git", "review-gate", "sessions", "bench-session.json");
  const fakeLog = join(ctx.tmp, "hooks-fake.jsonl");
  const env = {
    ...ctx.env,
    HOME: join(ctx.tmp, "home"),
    XDG_STATE_HOME: join(ctx.tmp, "state"),
    REVIEW_GATE_FAKE_LOG: fakeLog,
  };
  const installed = { stop: "" };
  const payload = (event: string) =>
    JSON.stringify({
      session_id: "bench-session",
      transcript_path: join(ctx.tmp, "transcript.jsonl"),
      cwd: repo,
      hook_event_name: event,
      ...(event === "Stop"
        ? { stop_hook_active: false, last_assistant_message: "Done." }
        : { prompt: "bench" }),
    });
  const pushes = "git push -q origin feature 2>&1 && git push -q origin --delete feature 2>&1 && " +
    "git push -q --no-verify origin main:refs/heads/feature 2>&1";
  const setup = async () => {
    if (installed.stop) return;
    await Deno.mkdir(join(ctx.tmp, "home"), { recursive: true });
    await Deno.mkdir(repo, { recursive: true });
    await Deno.mkdir(noop, { recursive: true });
    await Deno.writeTextFile(join(noop, "pre-push"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    await Deno.writeTextFile(join(ctx.tmp, "empty.ts"), "");
    await git(repo, ["init", "-q", "-b", "main"]);
    await git(ctx.tmp, ["init", "-q", "--bare", "-b", "main", remote]);
    for (let i = 0; i < 40; i++) {
      await Deno.writeTextFile(
        join(repo, `file${i}.ts`),
        `export const v${i} = ${i};\n`.repeat(50),
      );
    }
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "base"]);
    await git(repo, ["remote", "add", "origin", remote]);
    await git(repo, ["push", "-q", "origin", "main"]);
    await git(repo, ["checkout", "-q", "-b", "feature"]);
    await Deno.writeTextFile(join(repo, "file1.ts"), "export const changed = true;\n");
    await git(repo, ["commit", "-q", "-am", "change"]);
    await run([...ctx.reviewGate, "install", "--git", "--claude"], { cwd: repo, env });
    const settings = JSON.parse(
      await Deno.readTextFile(join(repo, ".claude", "settings.local.json")),
    );
    installed.stop = settings.hooks.Stop[0].hooks[0].command;
    // The first push reviews the branch (zero-latency fake) and fills the verdict cache; the
    // second, an update from main's tip, leaves the push stamp the measured runs replay.
    await git(repo, ["push", "-q", "--no-verify", "origin", "main:refs/heads/feature"]);
    await run(["sh", "-c", pushes], { cwd: repo, env });
    await run(["sh", "-c", pushes], { cwd: repo, env });
    // The turn starts after the pushes: its baseline holds the refs as they are now (a push moves
    // the remote-tracking refs, which the stop stamp records), and every push row puts them back.
    await run(["sh", "-c", settings.hooks.UserPromptSubmit[0].hooks[0].command], {
      cwd: repo,
      stdin: payload("UserPromptSubmit"),
      env,
    });
  };
  const silent = async (outputs: string[], what: string) => {
    if (outputs.some((o) => o.trim() !== "")) throw new Error(`${what} printed: ${outputs[0]}`);
    await Promise.resolve();
  };
  const stopGroup = "(c) Stop hook, turn changed nothing";
  const pushGroup = "(c) git push of a reviewed branch + its deletion";
  let sessionMtime = 0;
  const counts = { fake: 0, runs: 0 };
  const runsDir = join(repo, ".git", "review-gate", "runs");
  const cases: BenchCase[] = [
    {
      group: stopGroup,
      name: "empty deno run (floor)",
      baseline: true,
      cmd: [...DENO_RUN, join(ctx.tmp, "empty.ts")],
      cwd: repo,
      runs: 21,
      setup,
    },
    {
      group: stopGroup,
      name: "installed Stop command (sh -c, as Claude Code runs it)",
      get cmd() {
        return ["sh", "-c", installed.stop];
      },
      cwd: repo,
      env,
      stdin: payload("Stop"),
      runs: 21,
      countChildren: true,
      // the Stop command on an unchanged turn costs about an empty deno run (a target kept)
      speedTarget: { id: "Stop", floor: "empty deno run (floor)", max: 1.5 },
      setup: async () => {
        await setup();
        sessionMtime = (await Deno.stat(session)).mtime?.getTime() ?? 0;
      },
      verify: async (m) => {
        await silent(m.outputs, "the Stop hook");
        const now = (await Deno.stat(session)).mtime?.getTime() ?? 0;
        if (now !== sessionMtime) throw new Error("review-gate answered a stop: not the script");
      },
      describe: () => `command: ${installed.stop.replaceAll(ctx.projectRoot, "<checkout>")}`,
    },
    {
      group: stopGroup,
      name: "hook claude-stop (review-gate itself)",
      cmd: [...ctx.reviewGate, "hook", "claude-stop"],
      cwd: repo,
      env,
      stdin: payload("Stop"),
      runs: 21,
      countChildren: true,
      setup,
      verify: (m) => silent(m.outputs, "hook claude-stop"),
    },
    {
      group: pushGroup,
      name: "the two pushes through a no-op hook (floor)",
      baseline: true,
      cmd: ["sh", "-c", pushes],
      cwd: repo,
      env: {
        ...env,
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "core.hooksPath",
        GIT_CONFIG_VALUE_0: noop,
      },
      runs: 11,
      setup,
    },
    {
      group: pushGroup,
      name: "the two pushes through the installed pre-push hook",
      cmd: ["sh", "-c", pushes],
      cwd: repo,
      env,
      runs: 11,
      countChildren: true,
      // a cached push costs little more than the same pushes through a no-op hook
      speedTarget: { id: "push", floor: "the two pushes through a no-op hook (floor)", max: 1.5 },
      setup: async () => {
        await setup();
        counts.fake = await lineCount(fakeLog);
        counts.runs = await entries(runsDir);
      },
      verify: async (m) => {
        const bad = m.outputs.find((o) => !/\(cached verdict, no model call\)/.test(o));
        if (bad !== undefined) throw new Error(`the push did not say it used the cache: ${bad}`);
        if (await lineCount(fakeLog) !== counts.fake || await entries(runsDir) !== counts.runs) {
          throw new Error("a push asked the provider: the verdict did not come from the cache");
        }
      },
      describe: (m) => `hook says: ${m.outputs[0].trim().split("\n")[0]}`,
    },
    {
      group: stopGroup,
      name: "installed Stop command, REVIEW_GATE=0 (skipped)",
      get cmd() {
        return ["sh", "-c", installed.stop];
      },
      cwd: repo,
      env: { ...env, REVIEW_GATE: "0" },
      // a session whose prompt hook the switch skipped too: no stamp of its turn
      stdin: payload("Stop").replace("bench-session", "bench-skipped"),
      runs: 21,
      countChildren: true,
      setup,
      verify: async (m) => {
        await silent(m.outputs, "the skipped Stop hook");
        const state = await Deno.stat(session.replace("bench-session", "bench-skipped"))
          .catch(() => null);
        if (state) throw new Error("review-gate answered a skipped stop");
      },
    },
    {
      group: pushGroup,
      name: "the two pushes with REVIEW_GATE=0 through the installed hook (skipped)",
      cmd: ["sh", "-c", pushes],
      cwd: repo,
      env: { ...env, REVIEW_GATE: "0" },
      runs: 11,
      countChildren: true,
      setup: async () => {
        await setup();
        counts.fake = await lineCount(fakeLog);
        counts.runs = await entries(runsDir);
      },
      verify: async (m) => {
        await silent(m.outputs, "the skipped pushes");
        if (await lineCount(fakeLog) !== counts.fake || await entries(runsDir) !== counts.runs) {
          throw new Error("a skipped push was reviewed");
        }
      },
    },
  ];
  return cases;
};
