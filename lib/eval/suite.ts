/**
 * Loading an eval suite (docs/eval.md "The suite format"): every folder under the suite's folder
 * that holds a `case.json` is a case (its folders are not searched further; names starting with a
 * dot are skipped, symlinked folders not followed, at most {@linkcode MAX_CASE_DEPTH} folders down),
 * named by its path relative to the suite (`ts/off-by-one`). A case holds
 * `base/` and exactly one of `after/` and `change.patch`. `--cases` globs choose among them by
 * name, with the rules of the config's path globs (lib/rules/globs.ts): `go/*` names the cases
 * of one folder, `off-by-one` a case name in any folder. Every problem is a usage error naming the case, found before any model is asked.
 *
 * @module
 */
import { join, relative } from "../base/path.ts";
import { UsageError } from "../base/errors.ts";
import { compareCodeUnits } from "../base/compare.ts";
import { readRegularText } from "../base/regular_file.ts";
import { compileGlobs } from "../rules/globs.ts";
import { parseCaseFile } from "./case_file.ts";
import type { CaseChange, EvalCase, EvalSuite } from "./types.ts";

/** The file that makes a folder a case. */
export const CASE_FILE = "case.json";

/**
 * The suite shipped with review-gate (`eval-suite/` beside `lib/`, in the npm package and the
 * compiled binary too): what `eval` runs without `--suite`.
 */
export const SHIPPED_SUITE: string = join(import.meta.dirname ?? ".", "..", "..", "eval-suite");

/** The kind of a path, as `lstat` sees it; null when absent. */
async function kindOf(path: string): Promise<"dir" | "file" | "other" | null> {
  try {
    const info = await Deno.lstat(path);
    return info.isDirectory ? "dir" : info.isFile ? "file" : "other";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** How deep under the suite's folder a case may sit (`ts/off-by-one` is 2). */
export const MAX_CASE_DEPTH = 4;

/** Most folders searched for cases: a folder that is no suite (`/`, a home) is not walked whole. */
export const MAX_SEARCHED_FOLDERS = 5000;

/** What a search for case folders saw. */
interface Search {
  /** Folders searched so far. */
  searched: number;
  /** Folders that could not be listed (permission denied, gone while listed). */
  unreadable: string[];
  /** True once {@linkcode MAX_SEARCHED_FOLDERS} stopped the search. */
  stopped: boolean;
}

/**
 * Absolute folders holding a case.json under `dir`, depth first, at most
 * {@linkcode MAX_CASE_DEPTH} folders down and {@linkcode MAX_SEARCHED_FOLDERS} in all. Symlinked
 * folders are not followed; a folder that cannot be listed, for whatever reason, is counted in
 * `search.unreadable`.
 */
async function caseFolders(dir: string, depth: number, search: Search): Promise<string[]> {
  if (search.searched >= MAX_SEARCHED_FOLDERS) {
    search.stopped = true;
    return [];
  }
  search.searched++;
  const names: string[] = [];
  try {
    if (await kindOf(join(dir, CASE_FILE)) !== null) return [dir];
    if (depth >= MAX_CASE_DEPTH) return [];
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch {
    // permission denied, gone while listed, a pseudo-filesystem that refuses (EINVAL under /sys)
    search.unreadable.push(dir);
    return [];
  }
  const found: string[] = [];
  for (const name of names.sort(compareCodeUnits)) {
    found.push(...await caseFolders(join(dir, name), depth + 1, search));
  }
  return found;
}

/** The change of a case folder: `after/` or `change.patch`, exactly one. */
async function changeOf(dir: string, id: string): Promise<CaseChange> {
  const [after, patch] = await Promise.all([
    kindOf(join(dir, "after")),
    kindOf(join(dir, "change.patch")),
  ]);
  if (after !== null && patch !== null) {
    throw new UsageError(
      `Eval case "${id}" has both after/ and change.patch: keep one of them (docs/eval.md)`,
    );
  }
  if (after === "dir") return { form: "after", dir: join(dir, "after") };
  if (patch === "file") return { form: "patch", file: join(dir, "change.patch") };
  throw new UsageError(
    `Eval case "${id}" has no change: add after/ (the whole tree after the change) or change.patch (a git diff of base/)`,
  );
}

/** Load the case in `dir`. */
async function loadCase(suiteDir: string, dir: string): Promise<EvalCase> {
  const id = relative(suiteDir, dir) || ".";
  const label = `${id}/${CASE_FILE}`;
  let text: string;
  try {
    // not followed: a symlinked case.json could lead out of the case (and its text into a message)
    if (await kindOf(join(dir, CASE_FILE)) !== "file") {
      throw new UsageError(`${label} is not a regular file (a symlink, a FIFO, a folder…)`);
    }
    text = await readRegularText(join(dir, CASE_FILE));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${label}: ${(error as Error).message}`);
  }
  const file = await parseCaseFile(text, label);
  if (await kindOf(join(dir, "base")) !== "dir") {
    throw new UsageError(`Eval case "${id}" has no base/ folder: the tree before the change`);
  }
  return {
    id,
    dir,
    title: file.title,
    ...(file.description !== undefined ? { description: file.description } : {}),
    language: file.language,
    kind: file.kind,
    clean: "clean" in file.oracle,
    defects: "defects" in file.oracle ? file.oracle.defects : [],
    base: join(dir, "base"),
    change: await changeOf(dir, id),
  };
}

/**
 * Load a suite.
 *
 * @param dir the suite's folder (absolute, or relative to the working directory)
 * @param globs `--cases` globs (a case is chosen when one matches its id); none: every case
 * @returns the suite's resolved folder and its chosen cases in id order
 * @throws {UsageError} a folder that does not exist or holds no case, an invalid case, or globs
 *   that choose none
 */
export async function loadSuite(dir: string, globs: readonly string[] = []): Promise<EvalSuite> {
  let root: string;
  try {
    root = await Deno.realPath(dir);
  } catch (error) {
    throw new UsageError(`Cannot read the eval suite "${dir}": ${(error as Error).message}`);
  }
  if (await kindOf(root) !== "dir") {
    throw new UsageError(`The eval suite "${dir}" is not a folder`);
  }
  const search: Search = { searched: 0, unreadable: [], stopped: false };
  const folders = await caseFolders(root, 0, search);
  const format = `docs/eval.md "The suite format"`;
  if (search.stopped) {
    // a suite is a folder of case folders: one this large (/, a home folder) is not one
    throw new UsageError(
      `Not an eval suite: "${dir}" holds more than ${MAX_SEARCHED_FOLDERS} folders within ${MAX_CASE_DEPTH} levels (a suite is a folder of case folders, each with a ${CASE_FILE}; ${format})`,
    );
  }
  if (folders.length === 0) {
    const unread = search.unreadable.length > 0
      ? `; ${search.unreadable.length} folder(s) could not be read, e.g. ${search.unreadable[0]}`
      : "";
    throw new UsageError(
      `Not an eval suite: no cases found in "${dir}" (no folder with a ${CASE_FILE} within ${MAX_CASE_DEPTH} folders of it${unread}; ${format})`,
    );
  }
  if (search.unreadable.length > 0) {
    // a suite only partly seen is never evaluated as if whole
    throw new UsageError(
      `The eval suite "${dir}" could not be searched whole: cannot read ${search.unreadable[0]}`,
    );
  }
  const all = await Promise.all(folders.map((folder) => loadCase(root, folder)));
  const chosen = globs.length === 0 ? all : await choose(all, globs);
  if (chosen.length === 0) {
    throw new UsageError(
      `No case of the eval suite "${dir}" matches --cases ${globs.join(",")} (its cases: ${
        all.slice(0, 5).map((c) => c.id).join(", ")
      }${all.length > 5 ? ", …" : ""})`,
    );
  }
  return { dir: root, cases: chosen, total: all.length };
}

/** The cases whose id a glob matches. */
async function choose(cases: readonly EvalCase[], globs: readonly string[]): Promise<EvalCase[]> {
  const matches = await compileGlobs(globs);
  return cases.filter((c) => matches(c.id));
}
