/**
 * The path filter collection applies (lib/git/collect.ts `CollectOptions.exclude`): the team's
 * globs decide first (lib/rules/filters.ts); a file a *default* exclude names is left out only when
 * its content passes that default's check (lib/rules/content_checks.ts), read from git by blob id
 * (lib/rules/blob_read.ts: bounded, and only for those files); the paths only `.gitattributes` can
 * decide — and the defaults' files whose content failed — are then checked in one batched
 * `git check-attr` call, against the attribute files of the trusted side. The content checks'
 * code loads only for a change with such a file (docs/design.md "Performance notes").
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { ExcludeByRule, ExcludedFile, FilteredFile, NotExcludedFile } from "../git/types.ts";
import { readPathAttributes } from "./attributes.ts";
import type { ContentCheck } from "./content_checks.ts";
import { compileFilter, type FilterSettings } from "./filters.ts";
import type { RulesFrom } from "./source.ts";

/**
 * Build the collection's path filter.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param options the filter settings and where `.gitattributes` is read from
 * @returns the filter; it throws a GitError when `git check-attr` or `git cat-file` fails
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
  return async (files) => {
    const filter = await compiled;
    const open: string[] = [];
    const decided = new Map<string, string>();
    const checked: { file: FilteredFile; rule: string; check: ContentCheck }[] = [];
    for (const file of files) {
      const rule = filter.byPath(file.path);
      const check = rule && rule !== "attributes" ? filter.checkOf(rule) : undefined;
      if (rule === "attributes") {
        if (!options.skipAttributes) open.push(file.path);
      } else if (rule !== null && check) checked.push({ file, rule, check });
      else if (rule !== null) decided.set(file.path, rule);
    }
    const notExcluded = await earnDefaults(runner, repo, checked, decided);
    if (!options.skipAttributes) open.push(...notExcluded.map((n) => n.path));
    const attributes = await readPathAttributes(runner, repo, options.from, open);
    const excluded: ExcludedFile[] = [];
    for (const { path } of files) {
      const attrs = attributes.get(path);
      const rule = decided.get(path) ?? (attrs ? filter.byAttributes(attrs) : null);
      if (rule !== null) excluded.push({ path, rule });
    }
    const byAttributes = new Set(excluded.map((e) => e.path));
    return { excluded, notExcluded: notExcluded.filter((n) => !byAttributes.has(n.path)) };
  };
}

/**
 * Why a symlink never earns a default: git's blob of it is the path it points to, which is no
 * lockfile, minified code or snapshot (and the content there is not read: a check never follows a
 * link).
 */
const SYMLINK = "it is a symlink: its content is the path it points to, which is reviewed";

/**
 * Check the content of the files the defaults name: those that pass go into `decided` with their
 * rule; the others are returned, with why.
 */
async function earnDefaults(
  runner: Runner,
  repo: Repo,
  checked: readonly { file: FilteredFile; rule: string; check: ContentCheck }[],
  decided: Map<string, string>,
): Promise<NotExcludedFile[]> {
  if (checked.length === 0) return [];
  const [{ readBlobsForChecks }, { contentMismatch }] = await Promise.all([
    import("./blob_read.ts"),
    import("./content_checks.ts"),
  ]);
  const blobs = await readBlobsForChecks(
    runner,
    repo,
    checked.flatMap((c) => c.file.blob && !c.file.symlink ? [c.file.blob] : []),
  );
  const out: NotExcludedFile[] = [];
  for (const { file, rule, check } of checked) {
    const read = !file.blob
      ? "it is not a file (a submodule)"
      : file.symlink
      ? SYMLINK
      : blobs.get(file.blob);
    const why = read === undefined
      ? "its content could not be read"
      : typeof read === "string"
      ? read
      : await contentMismatch(check, { path: file.path, bytes: read });
    if (why === null) decided.set(file.path, rule);
    else out.push({ path: file.path, rule, why });
  }
  return out;
}
