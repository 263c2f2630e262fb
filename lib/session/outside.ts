/**
 * The files outside the repository a reviewer could write to persist — to run a program later
 * through our own git, the user's shell or an agent CLI, or to steer the next review — watched by
 * the read-only proof (lib/session/proof.ts) with stat-level fingerprints (bounded: a few dozen
 * `lstat` calls, each watched directory two levels deep and at most 200 entries).
 *
 * Watched: git (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/{config,attributes,ignore}` and every file
 * those configs include, lib/git/config_includes.ts), shells
 * (`~/.bashrc .bash_profile .bash_login .profile .zshrc .zshenv .zprofile`), ssh
 * (`~/.ssh/config`, `authorized_keys`), Claude Code (`settings.json`, `settings.local.json`,
 * `CLAUDE.md`, `skills/ agents/ commands/ hooks/ output-styles/ plugins/` of `~/.claude` or
 * `$CLAUDE_CONFIG_DIR`), Codex (`config.toml`, `AGENTS.md`, `AGENTS.override.md`, `.env`,
 * `hooks.json`, `skills/ rules/` of `~/.codex` or `$CODEX_HOME`), `~/.agents/skills`, and the
 * review-gate user config. Not watched, because the CLIs write them on every run:
 * `~/.claude.json`, `~/.claude/{projects,backups,telemetry,statsig,todos,shell-snapshots}`,
 * `~/.claude/plugins/store`; a private CODEX_HOME takes whatever codex writes.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { includedFiles } from "../git/config_includes.ts";
import { fingerprintDir, statSignature } from "./fingerprint.ts";

/** One watched path. */
interface Target {
  path: string;
  /** How the path is named in a violation (`~/…` under HOME). */
  label: string;
  /** A directory watched two levels deep. */
  dir?: boolean;
  exclude?: readonly string[];
}

/** The user's git config files, whose includes are watched too. */
const GIT_CONFIGS = ["/.gitconfig", "/git/config"];

const SHELL_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
];

/**
 * The watched paths for an environment.
 *
 * @param env the parent environment (HOME, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME)
 * @returns absolute paths with display labels; none without HOME
 */
export function persistenceTargets(env: Record<string, string | undefined>): Target[] {
  const home = env.HOME;
  if (!home) return [];
  const label = (path: string) =>
    path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
  const file = (path: string): Target => ({ path, label: label(path) });
  const dir = (path: string, exclude?: readonly string[]): Target => ({
    path,
    label: label(path),
    dir: true,
    exclude,
  });
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  const claude = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
  const codex = env.CODEX_HOME || join(home, ".codex");
  return [
    file(join(home, ".gitconfig")),
    ...["config", "attributes", "ignore"].map((f) => file(join(xdg, "git", f))),
    ...SHELL_FILES.map((f) => file(join(home, f))),
    file(join(home, ".ssh", "config")),
    file(join(home, ".ssh", "authorized_keys")),
    ...["settings.json", "settings.local.json", "CLAUDE.md"].map((f) => file(join(claude, f))),
    ...["skills", "agents", "commands", "hooks", "output-styles"].map((d) => dir(join(claude, d))),
    dir(join(claude, "plugins"), ["store", "cache", "marketplaces"]),
    ...["config.toml", "AGENTS.md", "AGENTS.override.md", ".env", "hooks.json"].map((f) =>
      file(join(codex, f))
    ),
    dir(join(codex, "skills"), [".system"]),
    dir(join(codex, "rules")),
    dir(join(home, ".agents", "skills")),
    file(join(xdg, "review-gate", "config.json")),
  ];
}

/**
 * Fingerprint the watched paths.
 *
 * @param env the parent environment
 * @returns label (or "label/entry") → stat signature
 */
export async function fingerprintOutside(
  env: Record<string, string | undefined>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const targets = persistenceTargets(env);
  // the files the user's git config includes (lib/git/config_includes.ts), present or not
  const configs = targets.filter((t) => GIT_CONFIGS.some((name) => t.path.endsWith(name)));
  for (const config of configs) {
    for (const included of await includedFiles(config.path, env.HOME)) {
      const label = env.HOME && included.startsWith(`${env.HOME}/`)
        ? `~/${included.slice(env.HOME.length + 1)}`
        : included;
      targets.push({ path: included, label: `${config.label} includes ${label}` });
    }
  }
  await Promise.all(
    targets.map(async (t) => {
      if (t.dir) {
        Object.assign(
          out,
          await fingerprintDir(t.path, t.label, { depth: 1, maxEntries: 200, exclude: t.exclude }),
        );
      } else out[t.label] = await statSignature(t.path);
    }),
  );
  return out;
}
