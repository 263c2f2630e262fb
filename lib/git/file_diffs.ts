/**
 * From the raw listing and one patch to what each changed file can show the reviewer: its text
 * sections (parsed into hunks for the plan) and the parts that cannot be shown, with the reason.
 *
 * - Sections are paired with listing entries by path (lib/git/patch_sections.ts), so a type
 *   change's two sections, or any section layout git prints, land with their file.
 * - A gitlink side (a submodule) is named "submodule"; its `Subproject commit` line says nothing.
 * - A binary section of a regular file is decoded when its bytes are text in another encoding
 *   (lib/git/decoded_diff.ts); otherwise it is named "binary" or "undecodable" with its size.
 * - A text section that is not valid UTF-8 is shown decoded as windows-1252 line by line, and the
 *   file says so (`encoding`).
 * - An entry git printed no section for (past the patch cap) is named "budget".
 *
 * @module
 */
import type { LineRange } from "../answer/types.ts";
import type { Runner } from "../exec/exec.ts";
import { changedLineRanges } from "./changed_lines.ts";
import { type BinaryFile, decodeBinaryDiffs } from "./decoded_diff.ts";
import type { RawEntry } from "./diff_parse.ts";
import { parseSection, type Section } from "./hunks.ts";
import { pairSections, sectionPaths } from "./patch_sections.ts";
import { decodeDiffText } from "./text_encoding.ts";
import type { OmittedPart } from "./types.ts";

/** What one changed file can show. */
export interface FileDiff {
  sections: Section[];
  /** Parts that cannot be shown (at most one per reason). */
  omitted: OmittedPart[];
  /**
   * How the shown text was decoded when it is not plain UTF-8: "UTF-16LE", "UTF-16BE with CRLF
   * line ends", "UTF-8 → UTF-16LE", "windows-1252".
   */
  encoding?: string;
  /** Added and deleted lines of a binary file decoded as text (git counts none). */
  decodedLines?: { additions: number; deletions: number };
  /**
   * The lines the change added or edited (lib/git/changed_lines.ts), from the hunks of every
   * text section; `null` when unknown: no hunk (a pure rename, a mode change), binary, a submodule.
   */
  changed: LineRange[] | null;
}

/** Placeholder for a section still being decoded. */
const EMPTY_SLOT: Section = { header: "", headerBytes: 0, hunks: [] };

/** Modes whose binary content may be decodable text: regular files and absent sides. */
const REGULAR = new Set(["100644", "100755", "000000"]);

/**
 * Pair the patch with the listing and decode every file's diff.
 *
 * @param runner the subprocess seam (blob reads and decoded diffs)
 * @param root repository root
 * @param entries the listing, in git's order
 * @param sections the patch's file sections in order (from `splitPatch`), already without a
 *   section cut by an output cap
 * @returns one {@linkcode FileDiff} per entry, in order
 * @throws {import("../base/errors.ts").GitError} when git fails to read a blob
 */
export async function fileDiffs(
  runner: Runner,
  root: string,
  entries: readonly RawEntry[],
  sections: readonly Uint8Array[],
): Promise<FileDiff[]> {
  const paths = sections.map(sectionPaths);
  const owned = pairSections(entries, paths);
  const out: FileDiff[] = entries.map(() => ({ sections: [], omitted: [], changed: null }));
  /** Binary sections to decode, with the slot their decoded section takes (git's order). */
  const binaries: { entry: number; slot: number; file: BinaryFile }[] = [];
  const decoder = new TextDecoder();
  entries.forEach((entry, i) => {
    const diff = out[i];
    if (owned[i].length === 0) {
      diff.omitted.push(part(entry.path, "budget", entry.additions + entry.deletions));
    }
    for (const k of owned[i]) {
      if (paths[k].gitlink) {
        addOnce(diff, part(entry.path, "submodule", 0));
      } else if (paths[k].binary) {
        const text = decoder.decode(sections[k]);
        const header = text.slice(0, text.indexOf("Binary files "));
        // a type change's sections each hold one side: the old one deleted, the new one created
        const file = { ...pick(entry), header };
        if (paths[k].oldPath === null) file.oldId = null;
        if (paths[k].newPath === null) file.newId = null;
        const modes = [file.oldId && entry.oldMode, file.newId && entry.newMode];
        if (modes.every((m) => !m || REGULAR.has(m))) {
          binaries.push({ entry: i, slot: diff.sections.length, file });
          diff.sections.push(EMPTY_SLOT);
        } else addOnce(diff, part(entry.path, "binary", 0));
      } else {
        const { text, fallback } = decodeDiffText(sections[k]);
        if (fallback) diff.encoding = "windows-1252";
        diff.sections.push(parseSection(text));
      }
    }
  });
  const decoded = await decodeBinaryDiffs(runner, root, binaries.map((b) => b.file));
  decoded.forEach((result, n) => {
    const diff = out[binaries[n].entry];
    const path = entries[binaries[n].entry].path;
    if (result.ok) {
      const section = parseSection(result.section);
      diff.sections[binaries[n].slot] = section;
      diff.decodedLines = { additions: 0, deletions: 0 };
      diff.encoding = result.crlf ? `${result.encoding} with CRLF line ends` : result.encoding;
    } else addOnce(diff, { ...part(path, result.reason, 0), bytes: result.bytes });
  });
  for (const diff of out) {
    diff.sections = diff.sections.filter((s) => s !== EMPTY_SLOT);
    if (diff.decodedLines) diff.decodedLines = countSides(diff.sections);
    diff.changed = changedOf(diff.sections);
  }
  return out;
}

/** The changed line ranges of sections' hunks, merged; `null` when they have no hunk. */
function changedOf(sections: Section[]): LineRange[] | null {
  const ranges = sections.flatMap((s) => s.hunks).flatMap((h) => changedLineRanges(h.text))
    .sort((a, b) => a.start - b.start);
  const merged: LineRange[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged.length > 0 ? merged : null;
}

/** Added and deleted lines of sections' hunks. */
function countSides(sections: Section[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const hunk of sections.flatMap((s) => s.hunks)) {
    for (const line of hunk.text.split("\n").slice(1)) {
      if (line[0] === "+") additions++;
      else if (line[0] === "-") deletions++;
    }
  }
  return { additions, deletions };
}

function pick(entry: RawEntry): Omit<BinaryFile, "header"> {
  const { path, oldPath, oldId, newId } = entry;
  return oldPath === undefined ? { path, oldId, newId } : { path, oldPath, oldId, newId };
}

function part(path: string, reason: OmittedPart["reason"], lines: number): OmittedPart {
  return { path, reason, lines, bytes: 0 };
}

function addOnce(diff: FileDiff, omitted: OmittedPart): void {
  if (!diff.omitted.some((o) => o.reason === omitted.reason)) diff.omitted.push(omitted);
}
