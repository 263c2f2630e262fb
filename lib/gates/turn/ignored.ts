/**
 * Files a turn hid from its own snapshot with ignore rules it wrote. A turn's snapshot records the
 * worktree as `git add -A` sees it, so ignored files are not part of it; but an agent that creates
 * `newdir/.gitignore` holding `*` next to `newdir/code.sh` (or adds `code.sh` to a `.gitignore`, or
 * to the user's global ignore file) makes its own files ignored, and the turn's tree does not change
 * at all. The turn's start records the ignored untracked entries, collapsed to directories
 * ({@linkcode ignoredListing}), and its time; the stop names every entry ignored now that was not
 * then, whose matching rule (`git check-ignore -v`) comes from a `.gitignore` file that is not in
 * the baseline tree as it is now — one the turn created or changed — or from the user's own ignore
 * file (`core.excludesFile`, `$XDG_CONFIG_HOME/git/ignore`) modified since the turn started, as not
 * reviewed (lib/gates/turn/unseen.ts `withUnseen`, so `on_partial` applies). New build output
 * ignored by rules that were already there (`dist/`, `__pycache__/`) is not named. The
 * repository's `info/exclude` is a guarded file of its own (lib/gates/turn/guard_files.ts). The
 * installed Stop script compares the listing's blob id with the one in the stop stamp
 * (lib/gates/turn/stop_stamp.ts), so a new ignored entry always reaches this check.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { fileBlobId } from "../../git/blob_id.ts";
import { git } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";

/**
 * The git arguments of the listing: ignored untracked files, a wholly ignored directory as one
 * entry (git does not descend into it). `hooks/turn-stop.sh` runs exactly these.
 */
const IGNORED_LISTING_ARGS: readonly string[] = [
  "ls-files",
  "-z",
  "--others",
  "--ignored",
  "--exclude-standard",
  "--directory",
];

/** Most entries kept in the session state; a larger listing is not recorded (see the stop). */
export const MAX_IGNORED_ENTRIES = 20_000;

/** Most entries named in the answer; the rest are counted. */
const MAX_NAMED = 10;

const decoder = new TextDecoder();

/**
 * The worktree's ignored untracked entries as git lists them (NUL-separated bytes). One git call.
 *
 * @throws {GitError} when git fails
 */
export async function ignoredListing(runner: Runner, repo: Repo): Promise<Uint8Array> {
  return await git(runner, repo.root, IGNORED_LISTING_ARGS);
}

/** The entries of a listing (repo-relative paths; a directory ends with `/`). */
export function listingEntries(bytes: Uint8Array): string[] {
  return decoder.decode(bytes).split("\0").filter((entry) => entry !== "");
}

/**
 * The entries ignored now, and not at the turn's start, by a rule of a `.gitignore` the turn wrote.
 *
 * Git calls: none when no entry is new; else `check-ignore -v` and, when a rule comes from a
 * `.gitignore`, one `ls-tree` of the baseline.
 *
 * @param at the repository, the baseline tree, the entries at the turn's start (`undefined` when
 *   they were not recorded: every entry counts as new) and now
 * @returns one phrase per entry, e.g. `newdir/ (ignored by newdir/.gitignore, which this turn
 *   wrote)`, at most {@linkcode MAX_NAMED} and one counting the rest
 * @throws {GitError} when git fails
 */
export async function ignoredByTurn(
  runner: Runner,
  at: {
    repo: Repo;
    baselineTree: string;
    before: readonly string[] | undefined;
    now: string[];
    /** When the turn started (ms since the epoch); `undefined` when not recorded. */
    startedAt?: number;
  },
): Promise<string[]> {
  const before = new Set(at.before ?? []);
  const fresh = at.now.filter((entry) => !before.has(entry));
  if (fresh.length === 0) return [];
  const rules = await ruleSources(runner, at.repo, fresh);
  const inTree = [...new Set(rules.filter((r) => r.inTree).map((r) => r.source))];
  const outside = [...new Set(rules.filter((r) => !r.inTree).map((r) => r.source))];
  const [baseline, current, written] = await Promise.all([
    inTree.length ? baselineBlobs(runner, at.repo, at.baselineTree, inTree) : new Map(),
    Promise.all(inTree.map((s) => fileBlobId(`${at.repo.root}/${s}`, at.repo.objectFormat))),
    Promise.all(outside.map((s) => writtenSince(s, at.startedAt))),
  ]);
  const changed = new Set([
    ...inTree.filter((s, i) => current[i] === null || baseline.get(s) !== current[i]),
    ...outside.filter((_, i) => written[i]),
  ]);
  const named = rules.filter((r) => changed.has(r.source))
    // an entry inside a directory already named adds nothing
    .filter((r, _, all) =>
      !all.some((o) => o.entry !== r.entry && o.entry.endsWith("/") && r.entry.startsWith(o.entry))
    );
  const phrases = named.slice(0, MAX_NAMED).map((r) =>
    `${r.entry} (ignored by ${r.source}, ${
      r.inTree ? "which this turn wrote" : "written during this turn"
    })`
  );
  if (named.length > MAX_NAMED) {
    phrases.push(
      `${named.length - MAX_NAMED} more entries ignored by rules written during this turn`,
    );
  }
  return phrases;
}

/**
 * True when the ignore file at `path` (absolute: `core.excludesFile`, `$XDG_CONFIG_HOME/git/ignore`)
 * was modified since the turn started, or when that time is not known.
 */
async function writtenSince(path: string, startedAt: number | undefined): Promise<boolean> {
  if (startedAt === undefined) return true;
  const info = await Deno.stat(path).catch(() => null);
  // a file gone or unreadable since: whatever it ignores now, it was not that file
  return info === null || (info.mtime?.getTime() ?? Infinity) >= startedAt - MTIME_SLACK_MS;
}

/** File systems that keep modification times in whole seconds (or two): err towards naming. */
const MTIME_SLACK_MS = 2000;

/**
 * Each entry's matching rule: from a `.gitignore` of the worktree (`inTree`, compared with the
 * baseline tree) or from an ignore file outside it (the user's `core.excludesFile` or
 * `$XDG_CONFIG_HOME/git/ignore`). The repository's `info/exclude` is a guarded file of its own
 * (lib/gates/turn/guard_files.ts) and is not counted here.
 */
async function ruleSources(
  runner: Runner,
  repo: Repo,
  entries: string[],
): Promise<{ entry: string; source: string; inTree: boolean }[]> {
  // -z with -v: <source> NUL <line> NUL <pattern> NUL <path> NUL, per path (git-check-ignore(1))
  const out = await git(runner, repo.root, ["check-ignore", "-v", "-z", "--stdin"], {
    stdin: entries.join("\0") + "\0",
    okCodes: [1],
  });
  const fields = decoder.decode(out).split("\0");
  const rules: { entry: string; source: string; inTree: boolean }[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, , , entry] = fields.slice(i, i + 4);
    if (source === "") continue;
    const absolute = source.startsWith("/") ? source : `${repo.root}/${source}`;
    if (absolute.endsWith("/info/exclude")) continue;
    const inTree = !source.startsWith("/") && !source.startsWith("../") &&
      source.slice(source.lastIndexOf("/") + 1) === ".gitignore";
    rules.push({ entry, source: inTree ? source : absolute, inTree });
  }
  return rules;
}

/** Blob ids of `paths` in the baseline tree (a path absent there is absent from the map). */
async function baselineBlobs(
  runner: Runner,
  repo: Repo,
  tree: string,
  paths: string[],
): Promise<Map<string, string>> {
  const out = await git(runner, repo.root, [
    "ls-tree",
    "-z",
    "--full-tree",
    tree,
    "--",
    ...paths.map((path) => `:(literal)${path}`),
  ]);
  const blobs = new Map<string, string>();
  for (const line of decoder.decode(out).split("\0")) {
    // <mode> SP <type> SP <object> TAB <path>
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    const [, type, id] = line.slice(0, tab).split(" ");
    if (type === "blob") blobs.set(line.slice(tab + 1), id);
  }
  return blobs;
}
