/**
 * Pure parser of git's `-z` raw listing, optionally followed by its numstat entries (`git diff-tree
 * -r -z -M --raw [--numstat]`, format in git-diff-tree(1) "RAW OUTPUT FORMAT" and "--numstat").
 * Collection asks for the raw listing alone (numstat makes git compute every file's diff a second
 * time) and counts lines from the patch, which lib/git/patch_reader.ts reads.
 *
 * @module
 */
import type { ChangedFile, FileStatus } from "./types.ts";

/**
 * One entry of the raw listing joined with its numstat line when there is one (without, its counts
 * are 0 and `binary` false until the patch says otherwise): a changed file before budgeting.
 */
export interface RawEntry extends Omit<ChangedFile, "omitted"> {
  /** True when either side is a submodule gitlink (mode 160000). */
  gitlink?: boolean;
  /** Octal modes ("100644", "120000", "160000"; "000000" for an absent side). */
  oldMode: string;
  newMode: string;
  /** Object ids; `null` for an absent side (all zeros in the listing). */
  oldId: string | null;
  newId: string | null;
}

/**
 * Status letters of git-diff(1) "RAW OUTPUT FORMAT". `U` (unmerged) and `X` (unknown) never come
 * from a diff of two trees, which is all review-gate asks for; any letter not listed here is read
 * as a modification rather than failing the review.
 */
const STATUS: Record<string, FileStatus> = {
  A: "added",
  C: "copied",
  D: "deleted",
  M: "modified",
  R: "renamed",
  T: "typechange",
  U: "modified",
  X: "modified",
};

/**
 * Parse `--raw -z` output, with or without `--numstat`. Paths are decoded as UTF-8 (invalid bytes
 * become U+FFFD).
 *
 * @param bytes stdout of `git diff-tree -r -z -M --raw [--numstat] A B`
 * @returns entries in git's order
 * @throws {Error} when the output does not follow the format (a bug, not a user error)
 */
export function parseRawNumstat(bytes: Uint8Array): RawEntry[] {
  const tokens = new TextDecoder().decode(bytes).split("\0");
  if (tokens.at(-1) === "") tokens.pop();
  const entries: RawEntry[] = [];
  let i = 0;
  while (i < tokens.length && tokens[i].startsWith(":")) {
    // ":<old mode> <new mode> <old id> <new id> <status letter><score>"
    const fields = tokens[i].split(" ");
    if (fields.length < 5) throw new Error(`Unexpected raw diff line "${tokens[i]}"`);
    const letter = fields[4][0] ?? "";
    const status = STATUS[letter] ?? "modified";
    const sides = {
      oldMode: fields[0].slice(1),
      newMode: fields[1],
      oldId: /^0+$/.test(fields[2]) ? null : fields[2],
      newId: /^0+$/.test(fields[3]) ? null : fields[3],
    };
    const gitlink = sides.oldMode === "160000" || sides.newMode === "160000"
      ? { gitlink: true }
      : {};
    if (letter === "R" || letter === "C") {
      const paths = { oldPath: tokens[i + 1], path: tokens[i + 2] };
      entries.push({ status, ...paths, ...noStat, ...gitlink, ...sides });
      i += 3;
    } else {
      entries.push({ status, path: tokens[i + 1], ...noStat, ...gitlink, ...sides });
      i += 2;
    }
  }
  if (i === tokens.length) return entries; // the raw listing alone
  for (const entry of entries) {
    const match = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(tokens[i] ?? "");
    if (!match) throw new Error(`Unexpected numstat line "${tokens[i]}"`);
    i += match[3] === "" ? 3 : 1; // renames and copies: "a\td\t\0old\0new\0"
    entry.binary = match[1] === "-";
    entry.additions = entry.binary ? 0 : Number(match[1]);
    entry.deletions = entry.binary ? 0 : Number(match[2]);
  }
  return entries;
}

const noStat = { binary: false, additions: 0, deletions: 0 };
