/**
 * How far `install --guard` protects review-gate's state from Claude Code (for `doctor`): the
 * guard's rules as Claude Code merges its settings scopes (local over project over user; arrays
 * concatenated; managed settings are not read), and whether its Bash sandbox can run here
 * (lib/install/claude/sandbox_host.ts). Levels: `sandbox` — the file tools are refused and Bash
 * runs confined; `tool-rules` — only the file tools are refused, a shell command can still forge
 * the state; `none`.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import type { Repo } from "../../git/repo.ts";
import { readTextOrNull } from "../file_actions.ts";
import { guardTargets } from "../guard_paths.ts";
import { parseSettingsText } from "../settings_text.ts";
import { claudeGuardItems, claudeGuardLevel, type GuardLevel, mergeScopes } from "./guard_rules.ts";
import { type ClaudeScope, claudeSettingsPath } from "./install.ts";
import { claudeSandboxProblem } from "./sandbox_host.ts";

/**
 * The level Claude Code's settings reach for this repository and user.
 *
 * @param input the runner (trial `bwrap`), repository, Claude's project dir, environment
 * @returns the level and, below `sandbox`, why
 */
export async function claudeGuardStatus(input: {
  runner: Runner;
  repo: Repo;
  projectDir: string;
  env: Record<string, string | undefined>;
}): Promise<{ level: GuardLevel; why?: string }> {
  const scopes: unknown[] = [];
  for (const scope of ["local", "project", "user"] as ClaudeScope[]) {
    let path: string;
    try {
      path = claudeSettingsPath(scope, { projectDir: input.projectDir, home: input.env.HOME });
    } catch {
      continue;
    }
    const text = await readTextOrNull(path);
    if (typeof text !== "string") continue;
    try {
      scopes.push(await parseSettingsText(text, path));
    } catch {
      // an invalid file: the hooks check names it
    }
  }
  const items = claudeGuardItems(await guardTargets({ repo: input.repo, env: input.env }));
  const level = claudeGuardLevel(mergeScopes(scopes), items, null);
  if (level.level !== "sandbox") return level;
  const problem = await claudeSandboxProblem(input.runner, input.env);
  return problem ? { level: "tool-rules", why: problem } : level;
}
