/**
 * Test helpers for the gates and installers: throwaway git repositories (husky's `setup()`), a git runner that
 * throws on failure, and shellcheck (required under CI). Test-only; never imported by lib code.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { runProcess } from "../exec/exec.ts";

const decoder = new TextDecoder();

/** Run git in `cwd` with a fixed identity; returns trimmed stdout; throws with stderr on failure. */
export async function git(
  cwd: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const result = await runProcess({
    cmd: "git",
    args,
    cwd,
    stdin: options.stdin ?? null,
    env: {
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: cwd,
      ...options.env,
    },
  });
  if (result.code !== 0) {
    throw new Error(
      `git ${args.join(" ")} failed (${result.code}): ${decoder.decode(result.stderr)}`,
    );
  }
  return decoder.decode(result.stdout).trim();
}

/** A temp dir with a git repo in `repo/` holding one commit; `cleanup()` removes it all. */
export async function makeRepo(
  options: { objectFormat?: "sha1" | "sha256" } = {},
): Promise<{ dir: string; repo: string; cleanup: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "rg-hooks-" });
  const repo = join(dir, "repo");
  await Deno.mkdir(repo);
  await git(repo, [
    "init",
    "-q",
    "-b",
    "main",
    `--object-format=${options.objectFormat ?? "sha1"}`,
  ]);
  await commitFile(repo, "README.md", "hello\n", "initial");
  return { dir, repo, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

/** Write a file, commit it; returns the new commit id. */
export async function commitFile(
  repo: string,
  path: string,
  text: string,
  message: string,
): Promise<string> {
  await Deno.writeTextFile(join(repo, path), text);
  await git(repo, ["add", "--", path]);
  await git(repo, ["commit", "-q", "-m", message]);
  return await git(repo, ["rev-parse", "HEAD"]);
}

/** True when `shellcheck` is on PATH. */
async function hasShellcheck(): Promise<boolean> {
  try {
    return (await runProcess({ cmd: "shellcheck", args: ["--version"] })).code === 0;
  } catch {
    return false;
  }
}

/**
 * True when tools the tests need must be present: under CI (`CI` set to anything but `""`, `0` or
 * `false`; `.ci/run` sets `CI=1`) or with `REVIEW_GATE_CONTRACT_REQUIRE=1`.
 */
export function toolsRequired(env: { get(name: string): string | undefined } = Deno.env): boolean {
  const ci = (env.get("CI") ?? "").trim().toLowerCase();
  return (ci !== "" && ci !== "0" && ci !== "false") ||
    env.get("REVIEW_GATE_CONTRACT_REQUIRE") === "1";
}

/**
 * Assert that shellcheck (POSIX sh dialect) finds nothing in a script text. Without shellcheck the
 * check is skipped on a developer machine and **fails** under CI ({@linkcode toolsRequired}).
 *
 * @param script the whole script, shebang included
 * @throws {Error} with shellcheck's report when it finds something, or when shellcheck is missing
 *   under CI
 */
export async function assertShellcheckClean(script: string): Promise<void> {
  if (!(await hasShellcheck())) {
    if (toolsRequired()) throw new Error("shellcheck is required under CI but is not installed");
    return;
  }
  const result = await runProcess({ cmd: "shellcheck", args: ["-s", "sh", "-"], stdin: script });
  const report = decoder.decode(result.stdout) + decoder.decode(result.stderr);
  if (result.code !== 0) throw new Error(`shellcheck:\n${report}\n--- script:\n${script}`);
}
