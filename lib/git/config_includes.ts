/**
 * The files a git config file pulls in: the `path` values of its `[include]` and
 * `[includeIf "<condition>"]` sections (git-config(1) "Includes"), resolved as git resolves them —
 * `~/` from HOME, a relative path from the including file's directory — followed into the files
 * they name (a few levels deep). Every condition counts, whether it holds now or not: a reviewer
 * that writes such a file changes what git does for the user later (`core.fsmonitor`,
 * `core.pager`, `core.sshCommand` run programs), so the read-only proof watches each one
 * (lib/git/git_meta.ts for the repository's config, lib/session/outside.ts for the user's).
 *
 * Read in-process, no git call: git itself would list only the files whose condition holds and
 * that exist, and a reviewer would create exactly one that does not exist yet.
 *
 * @module
 */
import { dirname, isAbsolute, join } from "../base/path.ts";
import { readRegularText } from "../base/regular_file.ts";

/** Include levels followed (git's own limit is 10). */
const MAX_DEPTH = 4;

/** Most included files named (a config that includes more is not the usual one). */
const MAX_FILES = 32;

/**
 * The include paths written in one config file's text.
 *
 * @param text the config file's content
 * @returns the raw `path` values, in file order (quotes removed, escapes kept as written)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = '[core]\n\tpath = no\n[include]\n\tpath = ~/.gitconfig.local\n[includeIf "gitdir:~/w/"]\n\tPath = "w.cfg"\n';
 * assert.deepEqual(includePaths(text), ["~/.gitconfig.local", "w.cfg"]);
 * ```
 */
export function includePaths(text: string): string[] {
  const paths: string[] = [];
  let including = false;
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      const section = header[1].toLowerCase();
      including = section === "include" || section === "includeif";
      line = line.slice(header[0].length).trim(); // `[include] path = x` on one line
    }
    if (!including) continue;
    const pair = /^path\s*=\s*(.*)$/i.exec(line);
    if (!pair) continue;
    let value = pair[1].replace(/\s+[#;].*$/, "").trim();
    if (value.startsWith('"')) {
      const end = value.indexOf('"', 1);
      value = end > 0 ? value.slice(1, end) : value.slice(1);
    }
    if (value !== "") paths.push(value);
  }
  return paths;
}

/**
 * The files the config file at `path` includes, directly or through included files.
 *
 * @param path absolute path of a config file (missing, unreadable or not a regular file: none)
 * @param home the HOME `~/` stands for (none: such paths are skipped)
 * @returns absolute paths, each once, without `path` itself
 */
export async function includedFiles(path: string, home: string | undefined): Promise<string[]> {
  const seen = new Set<string>([path]);
  const found: string[] = [];
  let level = [path];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      const text = await readRegularText(file).catch(() => null);
      if (text === null) continue;
      for (const value of includePaths(text)) {
        const target = resolveInclude(value, file, home);
        if (target === null || seen.has(target) || found.length >= MAX_FILES) continue;
        seen.add(target);
        found.push(target);
        next.push(target);
      }
    }
    level = next;
  }
  return found;
}

/** An include path as git resolves it, or `null` when it cannot be (`~/` without HOME, `~user/`). */
function resolveInclude(value: string, from: string, home: string | undefined): string | null {
  if (value === "~" || value.startsWith("~/")) return home ? join(home, value.slice(1)) : null;
  if (value.startsWith("~")) return null;
  return isAbsolute(value) ? value : join(dirname(from), value);
}
