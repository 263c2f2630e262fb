/**
 * Choosing the team's guidelines for one change (pure): `REVIEW.md` at the root applies to every
 * change, a nested `dir/REVIEW.md` to changes under `dir/`; the config's `instructions` apply to
 * every change and each `path_instructions` entry to changes matching one of its globs
 * (lib/rules/globs.ts). Only what applies to the change's reviewed paths is chosen, in this order:
 * `instructions`, REVIEW.md files from the root down, then `path_instructions` in config order.
 * The total is bounded by a byte budget: a guideline that does not fit whole is cut at a line
 * boundary (and says so), and those after the budget is used up are named as left out.
 *
 * @module
 */
import type { PathInstruction } from "../config/config.ts";
import type {
  LeftOutGuideline,
  PromptGuideline,
  ReviewGuidelines,
} from "../kinds/review/rules_text.ts";
import { compileGlobs, type PathMatcher } from "./globs.ts";
import { GUIDELINES_FILE } from "./rule_files.ts";
import { MAX_RULE_FILE_BYTES, type RuleFileText } from "./source.ts";

/** Smallest remainder of the budget worth cutting a guideline into, in bytes. */
const MIN_CUT_BYTES = 256;

/**
 * The `REVIEW.md` paths that could apply to a change: one in each directory that holds a changed
 * path, and in each directory above it, up to the root.
 *
 * @param paths reviewed repo-relative paths
 * @returns candidate paths, root first, then by depth and name
 */
export function guidelineCandidates(paths: readonly string[]): string[] {
  const dirs = new Set<string>([""]);
  for (const path of paths) {
    const parts = path.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return [...dirs]
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map((dir) => dir === "" ? GUIDELINES_FILE : `${dir}/${GUIDELINES_FILE}`);
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

/** A config `path_instructions` entry with its globs compiled. */
export interface CompiledPathInstruction extends PathInstruction {
  /** True for a path one of `paths` matches. */
  match: PathMatcher;
}

/**
 * Compile the globs of config `path_instructions` entries.
 *
 * @param entries config `path_instructions`
 * @returns the entries, in order, each with its matcher
 */
export async function compilePathInstructions(
  entries: readonly PathInstruction[],
): Promise<CompiledPathInstruction[]> {
  return await Promise.all(
    entries.map(async (entry) => ({ ...entry, match: await compileGlobs(entry.paths) })),
  );
}

/** What {@linkcode chooseGuidelines} chooses from. */
export interface GuidelineInputs {
  /** The change's reviewed paths (excluded-by-rule files left out). */
  paths: readonly string[];
  /** The REVIEW.md files found, by path (from {@linkcode guidelineCandidates}). */
  files: ReadonlyMap<string, RuleFileText>;
  /** Config `instructions`. */
  instructions?: string;
  /** Config `path_instructions` ({@linkcode compilePathInstructions}). */
  pathInstructions: readonly CompiledPathInstruction[];
  /** Most bytes (UTF-8) of guideline text. */
  budgetBytes: number;
}

/**
 * Choose and bound the guidelines that apply to a change.
 *
 * @returns the applied guidelines (texts bounded) and those left out, by source
 */
export function chooseGuidelines(inputs: GuidelineInputs): ReviewGuidelines {
  const wanted: PromptGuideline[] = [];
  if (inputs.instructions?.trim()) {
    wanted.push({
      source: "config instructions",
      appliesTo: "the whole repository",
      text: inputs.instructions,
    });
  }
  for (const path of guidelineCandidates(inputs.paths)) {
    const file = inputs.files.get(path);
    if (!file || file.text.trim() === "") continue;
    const dir = path.slice(0, -GUIDELINES_FILE.length);
    wanted.push({
      source: path,
      appliesTo: dir === "" ? "the whole repository" : dir,
      text: file.text,
      ...(file.truncated ? { cut: `first ${MAX_RULE_FILE_BYTES} of ${file.bytes} bytes` } : {}),
    });
  }
  inputs.pathInstructions.forEach((entry, i) => {
    if (!inputs.paths.some((p) => entry.match(p))) return;
    wanted.push({
      source: `config path_instructions[${i}]`,
      appliesTo: `paths matching ${entry.paths.map((g) => JSON.stringify(g)).join(", ")}`,
      text: entry.instructions,
    });
  });
  return bound(wanted, inputs.budgetBytes);
}

function bound(wanted: PromptGuideline[], budget: number): ReviewGuidelines {
  const encoder = new TextEncoder();
  const applied: PromptGuideline[] = [];
  const leftOut: LeftOutGuideline[] = [];
  let left = budget;
  for (const g of wanted) {
    const text = g.text.trim();
    const size = encoder.encode(text).length;
    if (size <= left) {
      applied.push({ ...g, text });
      left -= size;
    } else if (left >= MIN_CUT_BYTES) {
      const kept = cutAtLine(text, left);
      applied.push({
        ...g,
        text: kept,
        cut: `first ${encoder.encode(kept).length} of ${size} bytes`,
      });
      left = 0;
    } else {
      leftOut.push({ source: g.source, reason: `guidelines budget of ${budget} bytes used up` });
    }
  }
  return { applied, leftOut };
}

/** The longest prefix of `text` ending at a line break that fits `bytes` (UTF-8). */
function cutAtLine(text: string, bytes: number): string {
  const encoded = new TextEncoder().encode(text).subarray(0, bytes);
  const prefix = new TextDecoder().decode(encoded).replace(/\uFFFD$/, "");
  const nl = prefix.lastIndexOf("\n");
  return nl > 0 ? prefix.slice(0, nl) : prefix;
}
