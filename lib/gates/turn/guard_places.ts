/**
 * Two kinds of guarded file (lib/gates/turn/guard_files.ts) that live in the user's environment
 * rather than in a repository or an agent's settings: the program the installed hooks run, and the
 * shell startup files.
 *
 * **The installed program.** An `exit 0` put at the top of the script the Stop hook runs silences
 * every later stop, and a changed `main.ts` can do anything. The files named are the ones the
 * installed review-gate hook commands name — every absolute single-quoted word of a command that
 * carries the `managed-by: review-gate` marker (lib/install/self_command.ts writes them:
 * `hooks/turn-stop.sh`, `main.ts`, or the compiled binary), in the Claude Code settings, Codex
 * `hooks.json` files and the git pre-push hook the guard already reads — and, for the Claude Code
 * plugin, `bin/review-gate`, `main.ts` and `hooks/hooks.json` under `CLAUDE_PLUGIN_ROOT`. Not
 * covered: the deno runtime itself, a file over {@linkcode MAX_PROGRAM_BYTES} (a compiled binary:
 * digesting it at every prompt and every fast-path stop would cost more than the review it
 * guards), and the rest of a checkout's source tree (`lib/`, which `main.ts` imports). Be clear
 * about the limit: the program checks itself, so an edit that stops it before its check (that
 * `exit 0`) is found only when the program that runs the check is not the one edited; against an
 * agent that can write there, the protection is `install --guard`'s sandbox rules, which deny the
 * agent writes to the checkout.
 *
 * **Shell startup files.** `export REVIEW_GATE=0` appended to `~/.bashrc` switches off every later
 * push from the user's shell, and a `PATH` entry can put another `git` first. Bash's (`.bashrc`,
 * `.bash_profile`, `.bash_login`, `.profile`, and `.bash_aliases`, which Debian's `.bashrc`
 * sources), zsh's (`.zshenv`, `.zprofile`, `.zshrc`, `.zlogin`,
 * in `$ZDOTDIR` and in `$HOME`) and fish's `config.fish` are compared whole: a filter on lines that
 * mention `REVIEW_GATE`, `HUSKY` or `GIT_` would miss `source ~/.x`, `eval`, a `PATH` to a `git`
 * wrapper and any line built to hide its words, and an agent rarely has a reason to edit these
 * files unasked (a prompt asking to change the file allows it). Also `~/.pam_environment`, zsh's
 * `.zlogout`, and the directories of {@linkcode shellStartupDirs} (`~/.bashrc.d`, `~/.profile.d`,
 * systemd's `environment.d`, fish's `conf.d`, macOS `~/Library/LaunchAgents`): the listing of each
 * is guarded (a file added or removed), and its first {@linkcode MAX_DIR_ENTRIES} entries by name
 * one by one (content digested whole up to 4 MiB, larger by size, inode, change time and first and
 * last MiB: lib/providers/program.ts). Not covered: `/etc` files, an entry past the first
 * {@linkcode MAX_DIR_ENTRIES} of a directory being edited in place, files named by `BASH_ENV` or
 * `ENV`, and the other files a startup file sources (an `oh-my-zsh` custom directory, say).
 *
 * @module
 */
import { basename, isAbsolute, join } from "../../base/path.ts";

/** Largest program file guarded; a larger one (a compiled binary) is left out, as said above. */
export const MAX_PROGRAM_BYTES = 4 * 1024 * 1024;

/** The marker of review-gate's own hook commands (lib/install/git/stub.ts `MANAGED_MARKER`). */
const MARKER = "managed-by: review-gate";

/** Most bytes of a settings or hooks file read to find the program (larger: not read). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * The shell startup files of the user's shells, by absolute path (some may not exist).
 *
 * @param env the hook's environment: HOME, ZDOTDIR, XDG_CONFIG_HOME
 */
export function shellStartupFiles(env: Record<string, string | undefined>): string[] {
  const home = env.HOME;
  const zdot = env.ZDOTDIR || home;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, ".config") : undefined);
  const paths = [
    ...(home
      ? [".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_aliases"].map((f) =>
        join(home, f)
      )
      : []),
    ...[zdot, home].flatMap((dir) =>
      dir ? [".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout"].map((f) => join(dir, f)) : []
    ),
    ...(xdg ? [join(xdg, "fish", "config.fish")] : []),
    ...(home ? [join(home, ".pam_environment")] : []),
    ...shellStartupDirs(env).flatMap(dirEntries),
  ];
  return [...new Set(paths)];
}

/** Most entries of one startup directory guarded one by one (its listing is guarded whole). */
export const MAX_DIR_ENTRIES = 32;

/**
 * The directories a shell or login session reads startup files or environment from: bash's
 * `~/.bashrc.d` and `~/.profile.d` (Fedora's and many distributions' `.bashrc` and `.profile`
 * source them), systemd's user `environment.d`, fish's `conf.d`, and macOS's
 * `~/Library/LaunchAgents` (a plist can run `launchctl setenv` at login). Some may not exist.
 *
 * @param env the hook's environment: HOME, XDG_CONFIG_HOME
 */
export function shellStartupDirs(env: Record<string, string | undefined>): string[] {
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, ".config") : undefined);
  return [
    ...(home
      ? [".bashrc.d", ".profile.d", join("Library", "LaunchAgents")].map((d) => join(home, d))
      : []),
    ...(xdg ? [join(xdg, "environment.d"), join(xdg, "fish", "conf.d")] : []),
  ];
}

/** The first {@linkcode MAX_DIR_ENTRIES} names of a directory, sorted, as paths (none: []). */
function dirEntries(dir: string): string[] {
  try {
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    return names.slice(0, MAX_DIR_ENTRIES).map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/**
 * The program files the installed hooks run, as the hook files name them now.
 *
 * @param hookFiles absolute paths of the files holding hook commands (Claude Code settings, Codex
 *   `hooks.json`, the git pre-push hook); a missing or unreadable one names nothing
 * @param env the hook's environment (`CLAUDE_PLUGIN_ROOT` when the plugin's hook runs)
 * @returns absolute paths, each once, of regular files of at most {@linkcode MAX_PROGRAM_BYTES}
 */
export function programFiles(
  hookFiles: readonly string[],
  env: Record<string, string | undefined>,
): string[] {
  const named = hookFiles.flatMap((path) => commandsIn(readSmall(path, MAX_SETTINGS_BYTES)))
    .flatMap(quotedPaths);
  const plugin = env.CLAUDE_PLUGIN_ROOT;
  if (plugin && isAbsolute(plugin)) {
    named.push(...["bin/review-gate", "main.ts", "hooks/hooks.json"].map((f) => join(plugin, f)));
  }
  return [...new Set(named)].filter((path) => {
    const name = basename(path).toLowerCase();
    if (name === "deno" || name === "deno.exe" || path.startsWith("/dev/")) return false;
    const info = statSync(path);
    return info === null || (info.isFile && info.size <= MAX_PROGRAM_BYTES);
  });
}

/** The text of a small regular file, or "" (missing, not a regular file, too large). */
function readSmall(path: string, max: number): string {
  const info = statSync(path);
  if (!info?.isFile || info.size > max) return "";
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

function statSync(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/**
 * review-gate's hook commands in a file's text: every JSON string value carrying the marker in a
 * settings or hooks file, or the whole text of a hook script carrying it.
 */
function commandsIn(text: string): string[] {
  if (!text.includes(MARKER)) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [text]; // a hook script (or JSON with comments: its quoted words are read all the same)
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      if (v.includes(MARKER)) out.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}

/** The absolute paths a command names in single quotes (lib/install/self_command.ts quoting). */
function quotedPaths(command: string): string[] {
  const words = command.match(/(?:'[^']*'|\\')+/g) ?? [];
  return words.map((word) => word.replace(/'([^']*)'/g, "$1").replaceAll("\\'", "'"))
    .filter((value) => isAbsolute(value));
}
