/**
 * A change's patch, streamed into its review plan: the patch is read as it arrives
 * (lib/git/patch_reader.ts; this is its sink), every section is given to its listed file by path
 * (lib/git/patch_sections.ts `SectionRouter`: a type change's two sections, or any layout git
 * prints, land with their file), and its hunks go straight to the plan (lib/git/plan.ts), which
 * keeps only what it may still show. So memory stays bounded whatever the change's size.
 *
 * - A gitlink side (a submodule) is named "submodule"; its `Subproject commit` line says nothing.
 * - A binary section of a regular file is kept aside and, once the patch has ended, decoded when
 *   its bytes are text in another encoding (lib/git/decoded_diff.ts, batched); otherwise it is
 *   named "binary" or "undecodable" with its size.
 * - A text line that is not valid UTF-8 is shown as windows-1252 and the file says so (the plan
 *   decodes what it shows: lib/git/plan.ts `fallback`).
 * - A listed file git printed no section for is named "budget" (nothing of it reached the model).
 *
 * Files the team's rules exclude are routed like any other (so their sections land with no other
 * file) and then dropped: nothing of them reaches the plan.
 *
 * Per file it also gathers the lines the change added or edited (lib/git/changed_lines.ts) for the
 * decoder's scope check, from every hunk, shown or not.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { ChangedLinesCollector } from "./changed_lines.ts";
import type { BinaryFile } from "./decoded_diff.ts";
import type { RawEntry } from "./diff_parse.ts";
import {
  type HunkInfo,
  type HunkLines,
  PatchReader,
  type PatchSink,
  type ReaderLimits,
} from "./patch_reader.ts";
import { sectionPaths, SectionRouter } from "./patch_sections.ts";
import type { Planner } from "./plan.ts";

/** What collection learned about one listed file while streaming. */
export interface StreamedFile {
  /**
   * How the shown text was decoded when it is not plain UTF-8: "UTF-16LE", "UTF-16BE with CRLF
   * line ends", "UTF-8 → UTF-16LE", "windows-1252".
   */
  encoding?: string;
  /**
   * Added and deleted lines counted from the hunks shown or not (none for a binary file, unless
   * decoded, or a submodule): the file's counts, as `--numstat` would give them for text.
   */
  counted: { additions: number; deletions: number };
  /** True when git printed a section of it as binary ("Binary files … differ"). */
  binary: boolean;
  /** True when a binary side was decoded as text. */
  decoded: boolean;
  /**
   * The lines added or edited, sorted and merged, packed as (start, end) pairs
   * (lib/git/changed_lines.ts); `null` when unknown (no hunk, binary, submodule).
   */
  changed: Int32Array | null;
}

/** Modes whose binary content may be decodable text: regular files and absent sides. */
const REGULAR = new Set(["100644", "100755", "000000"]);
const lenient = new TextDecoder();

/** Streams one patch into a planner; {@linkcode push}, {@linkcode end}, then {@linkcode decode}. */
export class ChangeStream implements PatchSink {
  readonly #entries: readonly RawEntry[];
  readonly #planner: Planner;
  readonly #limits: ReaderLimits;
  readonly #reader: PatchReader;
  readonly #router: SectionRouter;
  readonly #files: StreamedFile[];
  readonly #changed = new ChangedLinesCollector();
  readonly #seen: boolean[];
  readonly #skip: ReadonlySet<number>;
  readonly #binaries: { entry: number; file: BinaryFile }[] = [];
  #current = -1;
  #showing = false;

  /**
   * @param entries the listing, in git's order (file `i` of the plan is entry `i`)
   * @param planner the plan to feed
   * @param limits the most bytes of one hunk part (larger hunks are cut while read) and of one
   *   part kept (a longer line is named, never shown)
   * @param skip entries left out by the team's rules: their sections are read and dropped, never
   *   planned (so they never count against the budget)
   */
  constructor(
    entries: readonly RawEntry[],
    planner: Planner,
    limits: ReaderLimits,
    skip: ReadonlySet<number> = new Set(),
  ) {
    this.#entries = entries;
    this.#skip = skip;
    this.#planner = planner;
    this.#limits = limits;
    this.#reader = new PatchReader(limits, this);
    this.#router = new SectionRouter(entries);
    this.#files = entries.map(() => ({
      counted: { additions: 0, deletions: 0 },
      binary: false,
      decoded: false,
      changed: null,
    }));
    this.#seen = entries.map(() => false);
  }

  /** The next bytes of the patch (copied where kept: they may be reused once this returns). */
  push(bytes: Uint8Array): void {
    this.#reader.push(bytes);
  }

  /**
   * The patch has ended (or was cut: what was read stands). Files with no section are named.
   */
  end(): void {
    this.#reader.end();
    this.#planner.endFile();
    this.#entries.forEach((entry, i) => {
      if (this.#seen[i] || this.#skip.has(i)) return;
      this.#planner.file(i, entry.path);
      this.#planner.omit({
        path: entry.path,
        reason: "budget",
        lines: entry.additions + entry.deletions,
        bytes: 0,
      });
      this.#planner.endFile();
    });
  }

  /**
   * Decode the binary files that are text in another encoding and add them to the plan (the
   * decoder's code loads only for a patch with such a file).
   *
   * @returns what was learned per listed file, in listing order
   * @throws {import("../base/errors.ts").GitError} when git fails to read a blob
   */
  async decode(runner: Runner, root: string): Promise<StreamedFile[]> {
    const results = this.#binaries.length === 0
      ? []
      : await (await import("./decoded_diff.ts")).decodeBinaryDiffs(
        runner,
        root,
        this.#binaries.map((b) => b.file),
      );
    results.forEach((result, n) => {
      const i = this.#binaries[n].entry;
      const path = this.#entries[i].path;
      this.#planner.file(i, path);
      if (!result.ok) {
        this.#planner.omit({ path, reason: result.reason, lines: 0, bytes: result.bytes });
      } else {
        const reader = new PatchReader(this.#limits, this);
        this.#current = i;
        reader.push(new TextEncoder().encode(result.section));
        reader.end();
        const encoding = result.crlf ? `${result.encoding} with CRLF line ends` : result.encoding;
        this.#files[i].encoding = encoding;
        this.#files[i].decoded = true;
      }
      this.#planner.endFile();
    });
    const changed = this.#changed.finish(this.#files.length);
    this.#files.forEach((file, i) => (file.changed = changed[i]));
    return this.#files;
  }

  /** {@linkcode PatchSink}: a section's header, given to its listed file. */
  section(header: Uint8Array): void {
    const paths = sectionPaths(header);
    const i = this.#router.route(paths);
    if (i < 0) return; // no listed file at all
    this.#seen[i] = true;
    if (this.#skip.has(i)) {
      // excluded by rule: its section is read (it must not land with another file), not planned
      if (i !== this.#current) this.#planner.endFile();
      this.#current = i;
      this.#showing = false;
      return;
    }
    const entry = this.#entries[i];
    if (i !== this.#current) this.#planner.file(i, entry.path);
    this.#current = i;
    this.#showing = false;
    if (paths.gitlink) {
      this.#planner.omit({ path: entry.path, reason: "submodule", lines: 0, bytes: 0 });
    } else if (paths.binary) {
      this.#files[i].binary = true;
      this.#binary(i, entry, paths, lenient.decode(header));
    } else {
      this.#planner.section(header);
      this.#showing = true;
    }
  }

  /** {@linkcode PatchSink}: the current section's next hunk. */
  hunk(hunk: HunkInfo, head: Uint8Array, body: Uint8Array, lines: HunkLines): void {
    if (!this.#showing) return;
    const i = this.#current;
    this.#planner.hunk(hunk, head, body);
    this.#changed.addLines(i, lines);
    const counted = this.#files[i].counted;
    counted.additions += hunk.additions;
    counted.deletions += hunk.deletions;
  }

  /** A binary section: kept to decode when its sides are regular files, else named "binary". */
  #binary(
    i: number,
    entry: RawEntry,
    paths: { oldPath: string | null; newPath: string | null },
    text: string,
  ): void {
    const header = text.slice(0, text.indexOf("Binary files "));
    // a type change's sections each hold one side: the old one deleted, the new one created
    const { path, oldPath } = entry;
    const file: BinaryFile = {
      path,
      ...(oldPath !== undefined ? { oldPath } : {}),
      oldId: paths.oldPath === null ? null : entry.oldId,
      newId: paths.newPath === null ? null : entry.newId,
      header,
    };
    const modes = [file.oldId && entry.oldMode, file.newId && entry.newMode];
    if (modes.every((m) => !m || REGULAR.has(m))) this.#binaries.push({ entry: i, file });
    else this.#planner.omit({ path, reason: "binary", lines: 0, bytes: 0 });
  }
}
