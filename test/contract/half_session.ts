/**
 * The agent session the hook contract tests script (Claude Code, Codex, Qwen Code, Gemini CLI): the model writes a
 * `half()` that doubles its input, the gate's review blocks on that line, the model fixes it and the
 * next review approves. Shared texts, the reviewer's answers, and running `codex exec`, `qwen -p` and
 * `gemini -p` on it.
 *
 * @module
 */
import { findCli } from "./env.ts";

/** `src/half.ts` as the model first writes it; `marker` makes the line findable in requests. */
export function halfBuggy(marker: string): string {
  return `export function half(n: number): number {\n  return n * 2; // ${marker}\n}\n`;
}

/** `src/half.ts` after the model's fix. */
export const HALF_FIXED = "export function half(n: number): number {\n  return n / 2;\n}\n";

/** The reviewer's first answer: one high finding on the line the model wrote (src/half.ts:2). */
export const HALF_FINDING = {
  verdict: "needs-attention",
  summary: "half() doubles its input.",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "half() multiplies instead of dividing",
    body: "`n * 2` doubles the value; the function must halve it.",
    file: "src/half.ts",
    line_start: 2,
    line_end: 2,
    confidence: 0.95,
    recommendation: "Return n / 2.",
  }],
  next_steps: ["Fix half()."],
};

/** The fake reviewer's scenario: the first review blocks with {@linkcode HALF_FINDING}, then approves. */
export const HALF_SCENARIO = {
  steps: [{ kind: "valid", answer: HALF_FINDING }, { kind: "valid" }],
};

/**
 * Run the real `codex exec --json` in `repo` with the session's prompt on stdin, killed after
 * `timeoutMs` milliseconds.
 *
 * @param sandbox `--sandbox` mode (default `danger-full-access`); `null` passes none, so the
 *   config's permission profile applies
 * @returns the exit code and decoded output
 */
export async function runCodexSession(
  repo: string,
  env: Record<string, string>,
  timeoutMs: number,
  sandbox: string | null = "danger-full-access",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(findCli("codex")!, {
    args: ["exec", "-C", repo, ...(sandbox ? ["--sandbox", sandbox] : []), "--json", "-"],
    cwd: repo,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("Add a half() helper in src/half.ts."));
  await writer.close();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

/**
 * Run the real `qwen -p <prompt> --yolo -o json` in `repo` (Qwen Code's headless mode, every tool
 * allowed), killed after `timeoutMs` milliseconds.
 *
 * @param prompt the user's prompt (default: the half() session's)
 * @returns the exit code and decoded output
 */
export async function runQwenSession(
  repo: string,
  env: Record<string, string>,
  timeoutMs: number,
  prompt = "Add a half() helper in src/half.ts.",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(findCli("qwen")!, {
    args: ["-p", prompt, "--yolo", "-o", "json"],
    cwd: repo,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

/**
 * Run the real `gemini -p <prompt> --yolo -o json` in `repo` (Gemini CLI's headless mode, every
 * tool allowed; the folder must be trusted, as a user's would be), killed after `timeoutMs`
 * milliseconds.
 *
 * @param prompt the user's prompt (default: the half() session's)
 * @returns the exit code and decoded output
 */
export async function runGeminiSession(
  repo: string,
  env: Record<string, string>,
  timeoutMs: number,
  prompt = "Add a half() helper in src/half.ts.",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(findCli("gemini")!, {
    args: ["-p", prompt, "--yolo", "-o", "json"],
    cwd: repo,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}
