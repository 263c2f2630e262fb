/**
 * The files outside the turn's tree diff that can switch the turn gate off or change what it
 * decides, and their fingerprints (for lib/gates/turn/guard.ts). A turn's change is baseline tree →
 * current tree, which never shows the user's review-gate config, the git hooks and `.git/config`
 * (`core.hooksPath`), git-ignored agent settings (`.claude/settings.local.json`) or the user's
 * Claude Code, Codex, Copilot, Qwen Code and Gemini CLI settings and hooks. The turn's start records, per file, a cheap stat fingerprint
 * (size, mtime, inode, ctime) and a digest of the part that matters; the stop stats again and reads only
 * a file whose stat changed, so a turn that touched none of them costs a dozen `stat` calls.
 *
 * What matters per file: all of it for review-gate's config and the hook files; for Claude Code
 * settings the `hooks`, `env`, `disableAllHooks` and `enabledPlugins` keys (Claude Code writes
 * `permissions` itself when the user allows a tool); for Codex's `config.toml` the lines about
 * hooks, features and `notify` (Codex writes project trust there); for git config the resolved
 * hooks directory and the values of the keys that decide what a worktree snapshot records
 * (`core.attributesFile`, `core.excludesFile`, every `filter.*` and `attr.*`), asked of git when a
 * config file changed. The repository's `info/attributes` and `info/exclude`, and the user's global
 * attributes file (git's default `$XDG_CONFIG_HOME/git/attributes` and a configured
 * `core.attributesFile`), count whole: they can mark the agent's edit as generated, ignored or
 * filtered, out of the turn's tree diff. So do the program the installed hooks run and the user's
 * shell startup files (lib/gates/turn/guard_places.ts says which, and what is not covered).
 *
 * @module
 */
import { basename, dirname, join, resolve } from "../../base/path.ts";
import { programFiles, shellStartupDirs, shellStartupFiles } from "./guard_places.ts";
import { programDigest, providerProgram } from "../../providers/program.ts";
import { PROVIDER_NAMES } from "../../providers/registry.ts";
import { sha256Hex } from "../../base/sha256.ts";
import { DEFAULT_CONFIG, userConfigPath } from "../../config/config.ts";
import type { Runner } from "../../exec/exec.ts";
import { gitText, runGit } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";
import { readRegularText } from "../../base/regular_file.ts";

/** How a guarded file is compared. */
export type GuardKind =
  | "whole"
  | "claude-settings"
  | "codex-config"
  | "qwen-settings"
  | "gemini-settings"
  | "copilot-settings"
  | "copilot-config"
  | "hooks-folder"
  | "git-config"
  | "program"
  | "listing";

/** One file the turn gate guards. */
export interface GuardedFile {
  /** Absolute path. */
  path: string;
  kind: GuardKind;
  /** What it is, for a finding's title: "review-gate's user config". */
  what: string;
  /** Words that, in the user's prompt, mean the user asked to change it (lowercase). */
  names: readonly string[];
}

/**
 * What the turn's start recorded: per path `<stat>|<digest>`, the resolved hooks path, and a digest
 * of the git config keys that steer a snapshot ({@linkcode gitControlDigest}; absent in sessions an
 * older version started).
 */
export interface GuardRecord {
  files: Record<string, string>;
  hooksDir: string | null;
  gitConfig?: string;
  /** The configured `core.attributesFile` ({@linkcode GitControl}), when one was set. */
  attributesFile?: string | null;
  /** The included git config files ({@linkcode GitControl}), when there were any. */
  includes?: string[];
  /**
   * Per provider name, the program file its review would start ({@linkcode providerPrograms}):
   * a provider that resolves to another file at the stop is a gate-control change.
   */
  programs?: Record<string, string | null>;
}

/**
 * The program file each provider's review would start now (lib/providers/program.ts: the
 * `REVIEW_GATE_<NAME>_BIN` override or the name on `PATH`, symlinks resolved).
 *
 * @returns provider name → absolute real path, or `null` when none is found
 */
export function providerPrograms(
  env: Record<string, string | undefined>,
): Record<string, string | null> {
  return Object.fromEntries(PROVIDER_NAMES.map((name) => [name, providerProgram(name, env)]));
}

/**
 * Words that, in a prompt, ask for a change to review-gate's own config: the phrases naming the
 * config or switching the gate, and every setting whose name holds an underscore (`fail_on`,
 * `max_blocks`, `claude_stop`…; shorter keys such as `exclude` are everyday words). A mere mention
 * of review-gate ("fix what review-gate reported") does not count.
 */
export const CONFIG_NAMES: readonly string[] = [
  "review-gate config",
  "review-gate's config",
  "review gate config",
  "review gate's config",
  "review-gate setting",
  "review-gate's setting",
  "review gate setting",
  "disable the gate",
  "disable the review gate",
  "disable the stop gate",
  "disable review-gate",
  "enable the gate",
  "enable review-gate",
  "turn off the gate",
  "turn off review-gate",
  // "please turn off the pre-push gate": a switch verb, later the word gate (guard.ts `namesIt`)
  "turn off…gate",
  "switch off…gate",
  "disable…gate",
  "turn on…gate",
  "switch on…gate",
  "enable…gate",
  "gate disable",
  "gate enable",
  ...settingNames(DEFAULT_CONFIG),
];

function settingNames(value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(key.includes("_") ? [key] : []),
    ...settingNames(inner),
  ]);
}

const GIT_CONFIG = "git's hooks, attributes, excludes or filter config";
const GIT_CONFIG_NAMES = [
  "hookspath",
  "attributesfile",
  "excludesfile",
  "checkstat",
  "trustctime",
  "git config",
];
/** The `what` of the user's review-gate config. */
export const USER_CONFIG = "review-gate's user config";
const GLOBAL_ATTRIBUTES = "git's global attributes file";
const PRE_PUSH = "the git pre-push hook";
const PROGRAM = "the review-gate program the hooks run";
const PROGRAM_NAMES = ["review-gate's program", "review-gate program"];
const SHELL_STARTUP = "a shell startup file";
const SHELL_STARTUP_DIR = "a shell startup directory";
const REVIEWER = "the reviewer CLI the review runs";
const REVIEWER_NAMES = ["reviewer cli", "reviewer program", "provider binary", "provider program"];
const ATTRIBUTES_NAMES = ["attributesfile", "git/attributes", "global attributes"];
const REPO_CONFIG = "review-gate's config";

/** The `what` of review-gate's own config files (the gate's settings come from them). */
export const CONFIG_KINDS: ReadonlySet<string> = new Set([USER_CONFIG, REPO_CONFIG]);

/**
 * The guarded files outside the tree diff for a repository and environment.
 *
 * @param repo the repository the turn gate is anchored on
 * @param env the hook's environment (HOME, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME)
 * @param hooksDir the resolved git hooks directory (its `pre-push` is guarded), if known
 * @param control the configured `core.attributesFile` and the included git config files
 *   ({@linkcode gitControl}), when known
 */
export function guardedFiles(
  repo: Repo,
  env: Record<string, string | undefined>,
  hooksDir: string | null,
  control?: { attributesFile?: string | null; includes?: readonly string[] } | null,
): GuardedFile[] {
  const files: (GuardedFile | null)[] = [
    userConfigFile(env),
    file(join(repo.root, ".review-gate.json"), "whole", REPO_CONFIG, [
      ...CONFIG_NAMES,
      ".review-gate.json",
    ]),
    ...gitFiles(repo, env, hooksDir, control),
    ...agentFiles(repo, env),
  ];
  const hookFiles = files.flatMap((f) =>
    f &&
      (f.kind === "claude-settings" || f.kind === "qwen-settings" ||
        f.kind === "gemini-settings" || f.what === "Codex's hooks" ||
        f.what === PRE_PUSH)
      ? [f.path]
      : f?.kind === "hooks-folder"
      ? [join(f.path, COPILOT_HOOKS_FILE)] // our hooks file in Copilot's hooks folders
      : []
  );
  files.push(
    ...programFiles(hookFiles, env).map((path) =>
      file(path, "whole", PROGRAM, [path.toLowerCase(), ...PROGRAM_NAMES])
    ),
    ...shellStartupFiles(env).map((path) =>
      file(path, "program", SHELL_STARTUP, [basename(path).toLowerCase(), "shell startup"])
    ),
    // a file added to one of these directories: its listing changes
    ...shellStartupDirs(env).map((path) =>
      file(path, "listing", SHELL_STARTUP_DIR, [basename(path).toLowerCase(), "shell startup"])
    ),
    ...Object.entries(providerPrograms(env)).map(([name, path]) =>
      file(path, "program", REVIEWER, [name, path?.toLowerCase() ?? name, ...REVIEWER_NAMES])
    ),
  );
  const seen = new Set<string>();
  return files.filter((f): f is GuardedFile => {
    if (!f || seen.has(f.path)) return false;
    seen.add(f.path);
    return true;
  });
}

/**
 * The user's review-gate config as a guarded file (`null` when neither XDG_CONFIG_HOME nor HOME is
 * set): a push during an open turn compares it too (lib/gates/pre_push/user_config.ts).
 */
export function userConfigFile(env: Record<string, string | undefined>): GuardedFile | null {
  return file(userConfigPath(env), "whole", USER_CONFIG, [
    ...CONFIG_NAMES,
    "review-gate/config.json",
  ]);
}

/** git's config files, the attribute and exclude files and the pre-push hook. */
function gitFiles(
  repo: Repo,
  env: Record<string, string | undefined>,
  hooksDir: string | null,
  control?: { attributesFile?: string | null; includes?: readonly string[] } | null,
): (GuardedFile | null)[] {
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, ".config") : undefined);
  return [
    file(join(repo.commonDir, "config"), "git-config", GIT_CONFIG, GIT_CONFIG_NAMES),
    file(join(repo.gitDir, "config.worktree"), "git-config", GIT_CONFIG, GIT_CONFIG_NAMES),
    file(home && join(home, ".gitconfig"), "git-config", GIT_CONFIG, GIT_CONFIG_NAMES),
    file(xdg && join(xdg, "git", "config"), "git-config", GIT_CONFIG, GIT_CONFIG_NAMES),
    ...(control?.includes ?? []).map((path) =>
      file(path, "git-config", GIT_CONFIG, GIT_CONFIG_NAMES)
    ),
    file(join(repo.commonDir, "info", "attributes"), "whole", "git's info/attributes", [
      "info/attributes",
    ]),
    file(join(repo.commonDir, "info", "exclude"), "whole", "git's info/exclude", ["info/exclude"]),
    // git's default core.attributesFile, read when none is configured, and the configured one
    file(xdg && join(xdg, "git", "attributes"), "whole", GLOBAL_ATTRIBUTES, ATTRIBUTES_NAMES),
    file(control?.attributesFile, "whole", GLOBAL_ATTRIBUTES, ATTRIBUTES_NAMES),
    file(hooksDir && join(hooksDir, "pre-push"), "whole", PRE_PUSH, ["pre-push"]),
    // the user's previous hook, which the installed one runs first with the same input file
    // (lib/install/git/stub.ts `CHAINED_HOOK_NAME`; gates may not import install)
    file(hooksDir && join(hooksDir, "pre-push.review-gate-chained"), "whole", PRE_PUSH, [
      "pre-push",
    ]),
  ];
}

/** Every agent's settings and hooks, the repository's and the user's. */
function agentFiles(
  repo: Repo,
  env: Record<string, string | undefined>,
): (GuardedFile | null)[] {
  const home = env.HOME;
  const claudeHome = env.CLAUDE_CONFIG_DIR || (home ? join(home, ".claude") : undefined);
  const codexHome = env.CODEX_HOME || (home ? join(home, ".codex") : undefined);
  return [
    file(join(repo.root, ".claude", "settings.json"), "claude-settings", "Claude Code's settings", [
      "settings.json",
      "claude settings",
    ]),
    file(
      join(repo.root, ".claude", "settings.local.json"),
      "claude-settings",
      "Claude Code's settings",
      ["settings.local.json", "claude settings"],
    ),
    file(
      claudeHome && join(claudeHome, "settings.json"),
      "claude-settings",
      "Claude Code's user settings",
      ["settings.json", "claude settings"],
    ),
    file(join(repo.root, ".codex", "hooks.json"), "whole", "Codex's hooks", ["hooks.json"]),
    file(join(repo.root, ".codex", "config.toml"), "codex-config", "Codex's config", [
      "config.toml",
    ]),
    file(codexHome && join(codexHome, "hooks.json"), "whole", "Codex's hooks", ["hooks.json"]),
    file(codexHome && join(codexHome, "config.toml"), "codex-config", "Codex's config", [
      "config.toml",
    ]),
    ...copilotFiles(repo, env),
    ...qwenFiles(repo, env),
    ...geminiFiles(repo, env),
  ];
}

/** review-gate's own file in a Copilot hooks folder (lib/install/copilot/entries.ts; gates may not import install). */
const COPILOT_HOOKS_FILE = "review-gate.json";

/**
 * The GitHub Copilot CLI's files that decide whether our hooks run and what runs beside them
 * (lib/gates/copilot/door.ts, lib/install/copilot/status.ts): the hooks folders — the
 * repository's `.github/hooks/` and the user's `$COPILOT_HOME/hooks/`, every `*.json` in them,
 * ours included, and a file added or removed — the settings whose `hooks`, `disableAllHooks` and
 * `disabledHooks` switch hooks on and off (the repository's `.github/copilot/settings*.json`, the
 * user's `settings.json`), and the user's `config.json`, whose `trustedFolders` decides whether
 * the repository's hooks run.
 */
function copilotFiles(repo: Repo, env: Record<string, string | undefined>): (GuardedFile | null)[] {
  const home = env.COPILOT_HOME || (env.HOME ? join(env.HOME, ".copilot") : undefined);
  const hooks = [COPILOT_HOOKS_FILE, "copilot hooks", "hooks folder", ".github/hooks"];
  const settings = ["settings.json", "copilot settings"];
  return [
    file(join(repo.root, ".github", "hooks"), "hooks-folder", "Copilot's hooks", hooks),
    file(home && join(home, "hooks"), "hooks-folder", "Copilot's user hooks", hooks),
    file(
      join(repo.root, ".github", "copilot", "settings.json"),
      "copilot-settings",
      "Copilot's settings",
      settings,
    ),
    file(
      join(repo.root, ".github", "copilot", "settings.local.json"),
      "copilot-settings",
      "Copilot's settings",
      ["settings.local.json", "copilot settings"],
    ),
    file(
      home && join(home, "settings.json"),
      "copilot-settings",
      "Copilot's user settings",
      settings,
    ),
    file(home && join(home, "config.json"), "copilot-config", "Copilot's trusted folders", [
      "config.json",
      "trustedfolders",
      "trusted folders",
      "trust the folder",
      "trust this folder",
    ]),
  ];
}

/**
 * Qwen Code's settings, the project's and the user's (`$QWEN_HOME`, default `~/.qwen`), and the
 * user's `trustedFolders.json`, which decides whether the project's hooks load
 * (lib/gates/qwen/door.ts).
 */
function qwenFiles(repo: Repo, env: Record<string, string | undefined>): (GuardedFile | null)[] {
  const qwenHome = env.QWEN_HOME || (env.HOME ? join(env.HOME, ".qwen") : undefined);
  const names = ["settings.json", "qwen settings"];
  return [
    file(join(repo.root, ".qwen", "settings.json"), "qwen-settings", "Qwen Code's settings", names),
    file(
      qwenHome && join(qwenHome, "settings.json"),
      "qwen-settings",
      "Qwen Code's user settings",
      names,
    ),
    file(
      env.QWEN_CODE_TRUSTED_FOLDERS_PATH || (qwenHome && join(qwenHome, "trustedFolders.json")),
      "whole",
      "Qwen Code's trusted folders",
      ["trustedfolders.json", "trusted folders"],
    ),
  ];
}

/**
 * Gemini CLI's settings, the project's and the user's (`$GEMINI_CLI_HOME/.gemini`, default
 * `~/.gemini`), and the user's `trustedFolders.json`, which decides whether any hook runs
 * (lib/gates/gemini/door.ts).
 */
function geminiFiles(repo: Repo, env: Record<string, string | undefined>): (GuardedFile | null)[] {
  const home = env.GEMINI_CLI_HOME || env.HOME;
  const dir = home ? join(home, ".gemini") : undefined;
  const names = ["settings.json", "gemini settings"];
  return [
    file(join(repo.root, ".gemini", "settings.json"), "gemini-settings", "Gemini CLI's settings", [
      ...names,
    ]),
    file(
      dir && join(dir, "settings.json"),
      "gemini-settings",
      "Gemini CLI's user settings",
      names,
    ),
    file(
      env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || (dir && join(dir, "trustedFolders.json")),
      "whole",
      "Gemini CLI's trusted folders",
      ["trustedfolders.json", "trusted folders"],
    ),
  ];
}

function file(
  path: string | null | undefined,
  kind: GuardKind,
  what: string,
  names: readonly string[],
): GuardedFile | null {
  return path ? { path, kind, what, names } : null;
}

/**
 * `size:mtime:inode:ctime`, or `-` when the file is missing. The change time is in it because a
 * process can set a file's mtime back (`touch -r`) but not its ctime.
 */
async function statPrint(path: string): Promise<string> {
  const info = await Deno.stat(path).catch(() => null);
  return info
    ? `${info.size}:${info.mtime?.getTime() ?? 0}:${info.ino ?? 0}:${info.ctime?.getTime() ?? 0}`
    : "-";
}

/** Most `*.json` files of a hooks folder whose stat the fast path reads (the digest reads all). */
const MAX_FOLDER_FILES = 64;

/**
 * A hooks folder's stat: its own (a file added, removed or renamed) and each `*.json` file's (an
 * edit in place changes only the file's), `;`-separated.
 */
async function folderPrint(path: string): Promise<string> {
  const own = await statPrint(path);
  if (own === "-") return own;
  const names = (await jsonNames(path)).slice(0, MAX_FOLDER_FILES);
  const prints = await Promise.all(names.map((name) => statPrint(join(path, name))));
  return [own, ...names.map((name, i) => `${name}=${prints[i]}`)].join(";");
}

/** A guarded file's stat fingerprint ({@linkcode statPrint}; a hooks folder's {@linkcode folderPrint}). */
function printOf(guarded: GuardedFile): Promise<string> {
  return guarded.kind === "hooks-folder" ? folderPrint(guarded.path) : statPrint(guarded.path);
}

/** The `*.json` entries of a folder (any case of the extension), sorted; none when missing. */
async function jsonNames(path: string): Promise<string[]> {
  return ((await listing(path)) ?? []).filter((name) => name.toLowerCase().endsWith(".json"));
}

/** Digest of every `*.json` file of a hooks folder: its name and its text (`-` when no folder). */
async function folderDigest(path: string): Promise<string> {
  if ((await listing(path)) === null) return "-";
  const parts: string[] = [];
  for (const name of await jsonNames(path)) {
    const text = await readRegularText(join(path, name)).catch(() => null);
    parts.push(`${name}\0${text === null ? "-" : await sha256Hex(text)}`);
  }
  return await sha256Hex(parts.join("\0"));
}

/** The part of a file that matters for its kind, digested (`-` when missing or unreadable). */
async function contentDigest(guarded: GuardedFile): Promise<string> {
  if (guarded.kind === "program") return await programDigest(guarded.path);
  if (guarded.kind === "hooks-folder") return await folderDigest(guarded.path);
  if (guarded.kind === "listing") {
    const names = await listing(guarded.path);
    return names === null ? "-" : await sha256Hex(names.join("\0"));
  }
  const text = await readRegularText(guarded.path).catch(() => null);
  if (text === null) return "-";
  switch (guarded.kind) {
    case "claude-settings":
      return await sha256Hex(JSON.stringify(await claudeRelevant(text)));
    case "qwen-settings":
      return await sha256Hex(JSON.stringify(await qwenRelevant(text)));
    case "gemini-settings":
      return await sha256Hex(JSON.stringify(await geminiRelevant(text)));
    case "copilot-settings":
      return await sha256Hex(JSON.stringify(await copilotRelevant(text, "settings")));
    case "copilot-config":
      return await sha256Hex(JSON.stringify(await copilotRelevant(text, "config")));
    case "codex-config":
      return await sha256Hex(
        text.split("\n").filter((l) => /hooks|features|notify/.test(l)).join("\n"),
      );
    case "git-config":
      return ""; // compared through the resolved hooks path
    default:
      return await sha256Hex(text);
  }
}

/** A directory's entry names, sorted (`null` when it is missing or not a directory). */
async function listing(path: string): Promise<string[] | null> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names.sort();
  } catch {
    return null;
  }
}

async function claudeRelevant(text: string): Promise<unknown> {
  let value: Record<string, unknown> | null = null;
  try {
    value = JSON.parse(text);
  } catch {
    const { parse } = await import("jsonc-parser");
    value = parse(text, [], { allowTrailingComma: true }) ?? null;
  }
  if (typeof value !== "object" || value === null) return text;
  const { hooks, env, disableAllHooks, enabledPlugins } = value;
  return { hooks, env, disableAllHooks, enabledPlugins };
}

/**
 * The keys of a Qwen Code settings file that decide whether our hooks run: `hooks`,
 * `disableAllHooks` and `security.folderTrust` (Qwen Code itself writes others, such as `$version`
 * and the model).
 */
async function qwenRelevant(text: string): Promise<unknown> {
  const { parse } = await import("jsonc-parser");
  const value = parse(text, [], { allowTrailingComma: true }) ?? null;
  if (typeof value !== "object" || value === null) return text;
  const { hooks, disableAllHooks, security } = value as Record<string, unknown>;
  return {
    hooks,
    disableAllHooks,
    folderTrust: (security as { folderTrust?: unknown })?.folderTrust,
  };
}

/**
 * The keys of a Gemini CLI settings file that decide whether our hooks run and with what:
 * `hooks`, `hooksConfig` (`enabled`, `disabled`), `security.folderTrust` and
 * `security.environmentVariableRedaction` (Gemini CLI itself writes others, such as the model).
 */
async function geminiRelevant(text: string): Promise<unknown> {
  const { parse } = await import("jsonc-parser");
  const value = parse(text, [], { allowTrailingComma: true }) ?? null;
  if (typeof value !== "object" || value === null) return text;
  const { hooks, hooksConfig, security } = value as Record<string, unknown>;
  const guarded = security as { folderTrust?: unknown; environmentVariableRedaction?: unknown };
  return {
    hooks,
    hooksConfig,
    folderTrust: guarded?.folderTrust,
    redaction: guarded?.environmentVariableRedaction,
  };
}

/**
 * The keys of a Copilot settings or config file that decide whether hooks run (Copilot itself
 * writes others: the model, `firstLaunchAt`, `recentModelIds`…): in the settings `hooks`,
 * `disableAllHooks` and `disabledHooks`; in `config.json` `trustedFolders` (lib/install/copilot/status.ts
 * has the verified facts; `hooks` and `disableAllHooks` there do nothing today, but are kept).
 */
async function copilotRelevant(text: string, file: "settings" | "config"): Promise<unknown> {
  const { parse } = await import("jsonc-parser");
  const value = parse(text, [], { allowTrailingComma: true }) ?? null;
  if (typeof value !== "object" || value === null) return text;
  const { hooks, disableAllHooks, disabledHooks, trustedFolders } = value as Record<
    string,
    unknown
  >;
  return file === "config"
    ? { trustedFolders, hooks, disableAllHooks }
    : { hooks, disableAllHooks, disabledHooks };
}

/**
 * The resolved git hooks directory, as git runs hooks from it (`core.hooksPath` honoured).
 *
 * @returns the absolute path, or `null` when git cannot say
 */
export async function hooksDirOf(runner: Runner, repo: Repo): Promise<string | null> {
  return await gitText(runner, repo.root, [
    "rev-parse",
    "--path-format=absolute",
    "--git-path",
    "hooks",
  ], {
    keepHooksPath: true,
  }).catch(() => null);
}

/**
 * The git config keys whose values decide what a worktree snapshot records (`core.checkStat` and
 * `core.trustctime` too: which stat data `add -A` trusts; review-gate's own git passes their
 * defaults, lib/git/git.ts, but the user's own git does not), which attributes the rules read
 * (`attr.tree`, git 2.42+, reads them from another tree), or where hooks are; and the include
 * directives, whose files can set any of them.
 */
const GIT_CONTROL_KEYS =
  "^(core\\.(hookspath|attributesfile|excludesfile|checkstat|trustctime)|filter\\..*|attr\\..*|include\\.path|includeif\\..*\\.path)$";

/** Most included config files guarded (the fast path hashes each one at every stop). */
const MAX_INCLUDES = 16;

/** What {@linkcode gitControl} reads from git config. */
export interface GitControl {
  /** sha256 hex of every matching key and value, as git lists them. */
  digest: string;
  /**
   * The user's attributes file as git reads it: `core.attributesFile` (`~/` expanded, a relative
   * path taken from the repository root), or `null` when unset (git then reads
   * `$XDG_CONFIG_HOME/git/attributes`, which {@linkcode guardedFiles} always guards).
   */
  attributesFile: string | null;
  /**
   * The files `include.path` and `includeIf.<condition>.path` name (resolved from the file that
   * includes them, as git does; whether or not the condition holds or the file exists), at most
   * {@linkcode MAX_INCLUDES}: an included file can set `core.hooksPath` without any guarded config
   * file changing.
   */
  includes: string[];
}

/**
 * The resolved values of `core.hooksPath`, `core.attributesFile`, `core.excludesFile`, every
 * `filter.*` and `attr.*` key and the include directives (`git config --show-origin
 * --get-regexp`, every scope git reads): their digest, the attributes file and the included files
 * they name. One git call.
 *
 * @returns the digest, the attributes file and the included files, or `null` when git cannot say
 */
export async function gitControl(runner: Runner, repo: Repo): Promise<GitControl | null> {
  const result = await runGit(
    runner,
    repo.root,
    ["config", "-z", "--show-origin", "--get-regexp", GIT_CONTROL_KEYS],
    {
      keepHooksPath: true,
    },
  ).catch(() => null);
  // exit 1: no key matched
  if (!result || (result.code !== 0 && result.code !== 1)) return null;
  // -z --show-origin: `<origin> NUL <key> LF <value> NUL` per entry (git-config(1) "--show-origin")
  const fields = new TextDecoder().decode(result.stdout).split("\0");
  let attributesFile: string | null = null;
  const includes: string[] = [];
  const entries: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [origin, entry] = [fields[i], fields[i + 1]];
    entries.push(entry);
    const cut = entry.indexOf("\n");
    if (cut < 0) continue;
    const [key, value] = [entry.slice(0, cut), entry.slice(cut + 1)];
    if (key === "core.attributesfile") {
      attributesFile = value === "" ? null : expandPath(value, repo.root); // the last one wins
    } else if (key.startsWith("include") && value !== "" && includes.length < MAX_INCLUDES) {
      const from = origin.startsWith("file:") ? dirname(resolve(repo.root, origin.slice(5))) : null;
      if (from) includes.push(expandPath(value, from));
    }
  }
  return { digest: await sha256Hex(entries.join("\0")), attributesFile, includes };
}

/** A config path as git reads it: `~/` from HOME, a relative path from `base`. */
function expandPath(value: string, base: string): string {
  const home = Deno.env.get("HOME");
  if (value.startsWith("~/") && home) return join(home, value.slice(2));
  return resolve(base, value);
}

/**
 * Digest of the values {@linkcode gitControl} reads.
 *
 * @returns sha256 hex, or `null` when git cannot say
 */
export async function gitControlDigest(runner: Runner, repo: Repo): Promise<string | null> {
  return (await gitControl(runner, repo))?.digest ?? null;
}

/**
 * Fingerprint every guarded file: `<stat>|<digest>`.
 *
 * @returns path → fingerprint
 */
export async function fingerprintFiles(
  files: readonly GuardedFile[],
): Promise<Record<string, string>> {
  const prints = await Promise.all(
    files.map(async (f) => `${await printOf(f)}|${await contentDigest(f)}`),
  );
  return Object.fromEntries(files.map((f, i) => [f.path, prints[i]]));
}

/**
 * The guarded files whose part that matters changed since `recorded`: stat first, the content only
 * for a file whose stat changed; git config files count only when the resolved hooks directory
 * moved or a key {@linkcode gitControlDigest} covers changed value.
 *
 * @returns the changed files (empty when none)
 */
export async function changedFiles(
  runner: Runner,
  repo: Repo,
  files: readonly GuardedFile[],
  recorded: GuardRecord,
): Promise<GuardedFile[]> {
  const changed: GuardedFile[] = [];
  let configMoved: boolean | undefined;
  for (const f of files) {
    const before = recorded.files[f.path];
    if (before === undefined) continue; // not known at the turn's start
    const [beforeStat, beforeDigest] = before.split("|");
    if ((await printOf(f)) === beforeStat) continue;
    if (f.kind === "git-config") {
      if (configMoved !== undefined) continue; // one finding for git config, whichever file
      configMoved = (await hooksDirOf(runner, repo)) !== recorded.hooksDir ||
        (recorded.gitConfig !== undefined &&
          (await gitControlDigest(runner, repo)) !== recorded.gitConfig);
      if (configMoved) changed.push(f);
    } else if ((await contentDigest(f)) !== beforeDigest) {
      changed.push(f);
    }
  }
  return changed;
}
