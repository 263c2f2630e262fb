/**
 * What the team's rules did to one review, for people and scripts: where they were read from,
 * whether the repository was trusted, the guidelines sent (by source, with their size and any cut)
 * and those left out, the files excluded by rule, the rule files the change edits, and notes on
 * what was ignored. Stored in `run.json` (`rules`) and shown by `--json`. Also the part of the
 * verdict cache key the rules make ({@linkcode rulesIdentity}: docs/design.md "Cache identity").
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import type { Change, ExcludedFile } from "../git/types.ts";
import type { LeftOutGuideline, ReviewGuidelines } from "../kinds/review/rules_text.ts";
import { sha256Hex } from "../base/sha256.ts";
import type { RulesOptions } from "./options.ts";
import { ruleFileEdits } from "./rule_files.ts";
import type { RulesFrom } from "./source.ts";

/** The rules of one review (run.json `rules`, the `--json` envelope's `rules`). */
export interface RulesReport {
  /**
   * `worktree`, or the tree's label and the id of the file tree read:
   * `base commit 0a1b2c3d4e5f, file tree a1b2c3d4e5f6`.
   */
  from: string;
  untrusted: boolean;
  /** Guidelines sent to the model, in prompt order. */
  guidelines: { source: string; appliesTo: string; bytes: number; cut?: string }[];
  /** Guidelines that applied but did not fit the budget. */
  guidelinesLeftOut: LeftOutGuideline[];
  /** Changed files left out by rule (never sent, not counted against the budget). */
  excluded: ExcludedFile[];
  /** Rule files the change edits: reviewed like any code; with a trusted side they do not apply. */
  editedRuleFiles: string[];
  /** What was ignored and why, one line each. */
  notes: string[];
}

/**
 * How the default excludes decide, in every verdict identity: since they are earned by content
 * (lib/rules/content_checks.ts), a verdict cached or memoised when they matched by name alone is
 * never reused — it may have left out readable code called `util.min.js`.
 */
const DEFAULTS_CHECKED = "default excludes earned by content, v3";

/**
 * The note on a symlink in the change: the model saw the path it points to (git's blob of a
 * symlink), never the content there, which this review did not read wherever it is.
 */
const SYMLINK_NOTE =
  "a symlink: the path it points to was reviewed, not the content there (reviewed only if that file is itself part of the change and not excluded)";

/** Most files excluded by rule a gate's one-line answer names. */
const NAMED_EXCLUDED = 5;

/**
 * The files excluded by rule, for a gate's answer: `package-lock.json (default: npm lockfile),
 * dist/a.js (exclude "dist/"), and 3 more` — at most five named, then a count.
 *
 * @param excluded the change's files excluded by rule (non-empty)
 * @returns one line, no final full stop
 */
export function excludedList(excluded: readonly ExcludedFile[]): string {
  const named = excluded.slice(0, NAMED_EXCLUDED).map((e) => `${e.path} (${e.rule})`).join(", ");
  const rest = excluded.length - NAMED_EXCLUDED;
  return rest > 0 ? `${named}, and ${rest} more` : named;
}

/**
 * How a rules side is named in reports: `worktree`, or its label and the short id of the git file
 * tree the rules were read from (`main, file tree a1b2c3d4e5f6`), in plain words, no brackets.
 */
export function describeRulesFrom(from: RulesFrom): string {
  return from.kind === "worktree"
    ? "worktree"
    : `${from.label}, file tree ${from.tree.slice(0, 12)}`;
}

/**
 * Build the report of a review's rules.
 *
 * @param rules where the rules came from
 * @param at the collected change (or only its exclusions, before collection), the guidelines
 *   chosen, and notes from loading the config
 */
export function buildRulesReport(
  rules: RulesOptions,
  at: {
    change?: Pick<Change, "files" | "excludedByRule" | "notExcludedByDefault">;
    guidelines?: ReviewGuidelines;
    notes?: readonly string[];
  },
): RulesReport {
  const { change, guidelines } = at;
  const paths = [
    ...(change?.files ?? []).flatMap((f) => f.oldPath ? [f.path, f.oldPath] : [f.path]),
    ...(change?.excludedByRule ?? []).map((e) => e.path),
  ];
  const notes = [...at.notes ?? []];
  for (const n of change?.notExcludedByDefault ?? []) {
    notes.push(`${n.path}: reviewed, not excluded by "${n.rule}": ${n.why}`);
  }
  for (const f of change?.files ?? []) {
    if (f.symlink) notes.push(`${f.path}: ${SYMLINK_NOTE}`);
  }
  if (rules.untrusted && rules.from.kind === "worktree") {
    notes.push(
      "untrusted: no trusted base to read the rules from; the repository's REVIEW.md files, .gitattributes marks and acknowledgements were not used",
    );
  }
  const encoder = new TextEncoder();
  return {
    from: describeRulesFrom(rules.from),
    untrusted: rules.untrusted,
    guidelines: (guidelines?.applied ?? []).map((g) => ({
      source: g.source,
      appliesTo: g.appliesTo,
      bytes: encoder.encode(g.text).length,
      ...(g.cut ? { cut: g.cut } : {}),
    })),
    guidelinesLeftOut: guidelines?.leftOut ?? [],
    excluded: change?.excludedByRule ?? [],
    editedRuleFiles: ruleFileEdits(paths),
    notes,
  };
}

/**
 * The part of the verdict cache key the rules make: the guideline texts sent, the files excluded
 * and the filter settings. Different guidelines or filters are a new review, never a stale hit.
 *
 * @returns sha256 hex
 */
export function rulesIdentity(
  config: Config,
  at: { guidelines: ReviewGuidelines; excluded: readonly ExcludedFile[] },
): Promise<string> {
  return sha256Hex(JSON.stringify([
    at.guidelines,
    at.excluded,
    config.exclude,
    config.include,
    config.default_excludes,
    DEFAULTS_CHECKED,
  ]));
}

/**
 * The rule settings of a config and where rule files are read, for the verdict memo of a target
 * reviewed before its change is collected (the pre-push fast path). The files themselves are fixed
 * by the target when the rules are read from its tree.
 *
 * @returns sha256 hex
 */
export function ruleSettingsIdentity(config: Config, rules: RulesOptions): Promise<string> {
  return sha256Hex(JSON.stringify([
    rules.from.kind === "tree" ? "tree" : "worktree",
    rules.untrusted,
    config.instructions ?? null,
    config.path_instructions,
    config.exclude,
    config.include,
    config.default_excludes,
    DEFAULTS_CHECKED,
    config.budgets.guidelines_bytes,
  ]));
}
