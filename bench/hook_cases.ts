/**
 * (c) the gates' fast paths, beside `git status --porcelain` in the same repository: the Claude
 * Stop hook when the turn changed nothing, and `pre-push` on a cached verdict (a re-push of commits
 * reviewed before). Both must stay within a few tens of milliseconds of the baseline.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, BenchContext, CaseFactory } from "./case_types.ts";
import { git as benchGit } from "./gen_repo.ts";

async function git(cwd: string, args: string[]): Promise<string> {
  return new TextDecoder().decode(await benchGit(cwd, args)).trim();
}

async function run(
  ctx: BenchContext,
  args: string[],
  options: { cwd: string; stdin: string },
): Promise<string> {
  const child = new Deno.Command(ctx.reviewGate[0], {
    args: [...ctx.reviewGate.slice(1), ...args],
    cwd: options.cwd,
    env: ctx.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  const out = await child.output();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

/** The hook cases; their repository is made in `setup` under the bench's temp dir. */
export const hookCases: CaseFactory = (ctx) => {
  const group = "(c) hook fast paths";
  const repo = join(ctx.tmp, "hooks-repo");
  const shas = { base: "", head: "" };
  const stop = JSON.stringify({
    session_id: "bench-session",
    transcript_path: join(ctx.tmp, "transcript.jsonl"),
    cwd: repo,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Done.",
  });
  const prompt = JSON.stringify({
    session_id: "bench-session",
    transcript_path: join(ctx.tmp, "transcript.jsonl"),
    cwd: repo,
    hook_event_name: "UserPromptSubmit",
    prompt: "bench",
  });
  const setup = async () => {
    if (shas.head) return;
    await Deno.mkdir(repo, { recursive: true });
    await git(repo, ["init", "-q", "-b", "main"]);
    for (let i = 0; i < 40; i++) {
      await Deno.writeTextFile(
        join(repo, `file${i}.ts`),
        `export const v${i} = ${i};\n`.repeat(50),
      );
    }
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "base"]);
    shas.base = await git(repo, ["rev-parse", "HEAD"]);
    await Deno.writeTextFile(join(repo, "file1.ts"), "export const changed = true;\n");
    await git(repo, ["commit", "-q", "-am", "change"]);
    shas.head = await git(repo, ["rev-parse", "HEAD"]);
    await run(ctx, ["hook", "claude-prompt"], { cwd: repo, stdin: prompt });
    // The first pre-push reviews the range (zero-latency fake) and fills the verdict cache.
    await run(ctx, ["hook", "pre-push", "origin", "bench"], { cwd: repo, stdin: pushLine() });
  };
  const pushLine = () => `refs/heads/main ${shas.head} refs/heads/main ${shas.base}\n`;
  const cases: BenchCase[] = [
    {
      group,
      name: "git status --porcelain (baseline)",
      baseline: true,
      cmd: ["git", "status", "--porcelain"],
      cwd: repo,
      runs: 21,
      setup,
    },
    {
      group,
      name: "Stop hook, turn changed nothing",
      cmd: [...ctx.reviewGate, "hook", "claude-stop"],
      cwd: repo,
      env: ctx.env,
      stdin: stop,
      runs: 21,
      setup,
      verify: async (m) => {
        if (m.outputs.some((o) => o.trim() !== "")) {
          throw new Error(`Stop hook printed: ${m.outputs[0]}`);
        }
        await Promise.resolve();
      },
    },
    {
      group,
      name: "pre-push, cached verdict",
      cmd: [...ctx.reviewGate, "hook", "pre-push", "origin", "bench"],
      cwd: repo,
      env: ctx.env,
      get stdin() {
        return pushLine();
      },
      runs: 21,
      setup,
    },
  ];
  return cases;
};
