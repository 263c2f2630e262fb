/**
 * The path filter collection applies (lib/git/collect.ts `CollectOptions.exclude`): the team's
 * globs decide first (lib/rules/filters.ts); the paths only `.gitattributes` can decide are then
 * checked in one batched `git check-attr` call, against the attribute files of the trusted side.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { ExcludeByRule, ExcludedFile } from "../git/types.ts";
import { readPathAttributes } from "./attributes.ts";
import { compileFilter, type FilterSettings } from "./filters.ts";
import type { RulesFrom } from "./source.ts";

/**
 * Build the collection's path filter.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param options the filter settings and where `.gitattributes` is read from
 * @returns the filter; it throws a GitError when `git check-attr` fails
 */
export function excludeByRule(
  runner: Runner,
  repo: Repo,
  options: {
    settings: FilterSettings;
    from: RulesFrom;
    /** Do not read `.gitattributes` marks (an untrusted worktree's could hide files). */
    skipAttributes?: boolean;
  },
): ExcludeByRule {
  const compiled = compileFilter(options.settings);
  compiled.catch(() => {}); // a glob picomatch refuses fails the first call, not the process
  return async (paths) => {
    const filter = await compiled;
    const excluded: ExcludedFile[] = [];
    const open: string[] = [];
    const decided = new Map<string, string>();
    for (const path of paths) {
      const rule = filter.byPath(path);
      if (rule === "attributes") {
        if (!options.skipAttributes) open.push(path);
      } else if (rule !== null) decided.set(path, rule);
    }
    const attributes = await readPathAttributes(runner, repo, options.from, open);
    for (const path of paths) {
      const attrs = attributes.get(path);
      const rule = decided.get(path) ?? (attrs ? filter.byAttributes(attrs) : null);
      if (rule !== null) excluded.push({ path, rule });
    }
    return excluded;
  };
}
