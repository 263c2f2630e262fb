/**
 * Pair the sections of one `git diff-tree -p` patch with the entries of the `--raw` listing of the
 * same diff, by path (pure). Counting sections is not enough: git writes one listing entry but
 * *two* patch sections for a type change (`T`: symlink ↔ file, file ↔ gitlink, symlink ↔
 * gitlink): the old side as a deletion, then the new side as a creation. So every section's paths
 * are read from its own header — `rename from`/`copy from` lines, then `---`/`+++`, then the
 * `diff --git` line (whose two names are equal whenever no rename line follows it) — and the
 * section joins the next entry, in listing order, with that path. A section no entry claims
 * stays with the entry before it: its text is still reviewed and nothing is lost, whatever git
 * prints.
 *
 * Header formats: git-diff(1) "GENERATING PATCH TEXT WITH -P" (extended header lines, C-quoted
 * names for names with control characters, quotes or backslashes; `core.quotepath=off` leaves
 * other bytes raw).
 *
 * @module
 */

/** The two paths a patch section is about; `null` for the absent side (`/dev/null`). */
export interface SectionPaths {
  oldPath: string | null;
  newPath: string | null;
  /** True when a side of the section is a submodule gitlink (mode 160000). */
  gitlink: boolean;
  /** True when git shows the section as binary (a `Binary files … differ` line). */
  binary: boolean;
}

const decoder = new TextDecoder();
/** A header line that gives a side the gitlink mode: `new file mode 160000`, `index a..b 160000`. */
const GITLINK_LINE = /^(?:(?:old|new|deleted file|new file) mode 160000|index \S+ 160000)$/;
/** The header ends at the first hunk or at a binary notice; 64 KiB is far beyond any header. */
const HEADER_SCAN = 64 * 1024;

/**
 * Read the paths of one patch section from its header.
 *
 * @param section one section's bytes, starting with its `diff --git ` line
 * @returns the paths (decoded as UTF-8); both `null` when the header names none it can read
 */
export function sectionPaths(section: Uint8Array): SectionPaths {
  const { lines, binary } = headerLines(section);
  const out: SectionPaths = { oldPath: null, newPath: null, gitlink: false, binary };
  let from: string | null = null;
  let to: string | null = null;
  let minus: string | null | undefined;
  let plus: string | null | undefined;
  let created = false;
  let deleted = false;
  for (const line of lines.slice(1)) {
    if (GITLINK_LINE.test(line)) out.gitlink = true;
    if (line.startsWith("new file mode ")) created = true;
    else if (line.startsWith("deleted file mode ")) deleted = true;
    else if (line.startsWith("rename from ") || line.startsWith("copy from ")) {
      from = unquote(line.slice(line.indexOf(" from ") + 6));
    } else if (line.startsWith("rename to ") || line.startsWith("copy to ")) {
      to = unquote(line.slice(line.indexOf(" to ") + 4));
    } else if (line.startsWith("--- ")) minus = sidePath(line.slice(4), "a/");
    else if (line.startsWith("+++ ")) plus = sidePath(line.slice(4), "b/");
  }
  if (from !== null || to !== null) {
    out.oldPath = from ?? to;
    out.newPath = to ?? from;
  } else if (minus !== undefined || plus !== undefined) {
    out.oldPath = minus ?? null;
    out.newPath = plus ?? null;
  } else {
    const name = diffGitName(lines[0] ?? "");
    out.oldPath = created ? null : name;
    out.newPath = deleted ? null : name;
  }
  return out;
}

/** The header's lines (without newlines), up to the first hunk or binary notice. */
function headerLines(section: Uint8Array): { lines: string[]; binary: boolean } {
  const text = decoder.decode(section.subarray(0, Math.min(section.length, HEADER_SCAN)));
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("@@")) break;
    if (line.startsWith("Binary files ")) return { lines, binary: true };
    lines.push(line);
  }
  return { lines, binary: false };
}

/** `a/path`, `"a/pa\"th"` or `/dev/null` (plus an optional trailing TAB) → the path or null. */
function sidePath(text: string, prefix: string): string | null | undefined {
  const name = unquote(text.endsWith("\t") ? text.slice(0, -1) : text);
  if (name === "/dev/null") return null;
  return name.startsWith(prefix) ? name.slice(prefix.length) : undefined;
}

/**
 * The path of a `diff --git a/P b/P` line whose two names are equal (the only case where the
 * header is read from this line): quoted, both names are C strings; unquoted, the line's length
 * fixes where the first name ends, whatever spaces or " b/" the name holds.
 */
function diffGitName(line: string): string | null {
  const rest = line.slice("diff --git ".length);
  if (rest.startsWith('"')) {
    const end = quotedEnd(rest);
    const first = unquote(rest.slice(0, end));
    return first.startsWith("a/") ? first.slice(2) : null;
  }
  const n = (rest.length - 5) / 2;
  if (!Number.isInteger(n) || n < 1) return null;
  const name = rest.slice(2, 2 + n);
  return rest === `a/${name} b/${name}` ? name : null;
}

/** Index just past the closing quote of the C string starting at `text[0]`. */
function quotedEnd(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

const ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  "\\": 92,
};

/**
 * Undo git's C-quoting of a name (`"a/\303\274 \"x\""` → `a/ü "x"`); an unquoted name is returned
 * as is. Octal escapes are raw bytes, decoded together as UTF-8.
 *
 * @param text a name as git prints it in a patch header
 */
export function unquote(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  const bytes: number[] = [];
  const body = new TextEncoder().encode(text.slice(1, -1));
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== 92 || i + 1 === body.length) {
      bytes.push(body[i]);
      continue;
    }
    const next = String.fromCharCode(body[++i]);
    if (next >= "0" && next <= "7") {
      const digits = new TextDecoder().decode(body.subarray(i, i + 3));
      bytes.push(parseInt(digits, 8) & 0xff);
      i += 2;
    } else bytes.push(ESCAPES[next] ?? body[i]);
  }
  return decoder.decode(new Uint8Array(bytes));
}

/** What pairing needs of a listing entry. */
export interface PairableEntry {
  /** Path after the change (the deleted path for deletions). */
  path: string;
}

/**
 * Gives patch sections, one at a time in git's order, to listing entries: the first entry, at or
 * after the previous section's entry, whose path is the section's new path (or, for a deletion,
 * its old path); a section no later entry claims goes to an earlier entry with that path, else
 * stays with the previous section's entry (or the first entry). Never throws, never drops one.
 */
export class SectionRouter {
  readonly #byPath = new Map<string, number[]>();
  readonly #count: number;
  #cursor = 0;

  /** @param entries the listing entries, in git's order */
  constructor(entries: readonly PairableEntry[]) {
    this.#count = entries.length;
    entries.forEach((e, i) => {
      const list = this.#byPath.get(e.path);
      if (list) list.push(i);
      else this.#byPath.set(e.path, [i]);
    });
  }

  /**
   * The entry the next section belongs to.
   *
   * @returns its index, or -1 when there are no entries at all
   */
  route(section: Pick<SectionPaths, "oldPath" | "newPath">): number {
    if (this.#count === 0) return -1;
    const key = section.newPath ?? section.oldPath;
    const candidates = key === null ? undefined : this.#byPath.get(key);
    if (candidates) this.#cursor = candidates.find((i) => i >= this.#cursor) ?? candidates.at(-1)!;
    return this.#cursor;
  }
}
