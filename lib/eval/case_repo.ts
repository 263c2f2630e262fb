/**
 * The throwaway repository of one eval case (docs/eval.md "How a case runs"): a fresh git
 * repository whose first commit is the case's `base/` tree and whose second is the change — the
 * `after/` tree, or `change.patch` applied with `git apply` — both committed with a fixed identity
 * and date, so a case always has the same commit ids. Git runs through the one git seam
 * (lib/git/git.ts) reading no global or system config, so the user's own git settings (signing,
 * templates, hooks) play no part. Built before any model is asked: a patch that does not apply or
 * an oracle that points past its file is a usage error naming the case. It also gives the lines the
 * change added or edited, read from the same patch git shows a review (lib/git/changed_lines.ts),
 * against which a finding is scored as hallucinated.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { UsageError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import type { LineRange } from "../answer/types.ts";
import { git, runGit, stderrTail } from "../git/git.ts";
import { PATCH_ARGS } from "../git/collect.ts";
import { changedLineRanges } from "../git/changed_lines.ts";
import { sectionPaths } from "../git/patch_sections.ts";
import { countTextLines } from "../git/text_encoding.ts";
import type { EvalCase } from "./types.ts";

/** A case's repository, built. */
export interface CaseRepo {
  /** Absolute worktree root (holding the tree after the change). */
  root: string;
  /** Commit id of the base. */
  base: string;
  /** Commit id of the change. */
  head: string;
  /** The lines the change added or edited, per path after the change (paths it deleted absent). */
  changed: Map<string, LineRange[]>;
  /** What the case's oracle says that a reader should know (a defect on lines the change kept). */
  notes: string[];
}

/** Who commits a case: fixed, so a case's commits are the same on every machine and run. */
const IDENTITY: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: "review-gate eval",
  GIT_AUTHOR_EMAIL: "eval@review-gate.invalid",
  GIT_COMMITTER_NAME: "review-gate eval",
  GIT_COMMITTER_EMAIL: "eval@review-gate.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/** Copy the regular files and folders under `from` into `to`, keeping the executable bits. */
async function copyTree(from: string, to: string, id: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.name === ".git") {
      throw new UsageError(
        `Eval case "${id}" holds a .git entry in ${source}: a case is files only`,
      );
    }
    if (entry.isDirectory) {
      await Deno.mkdir(target);
      await copyTree(source, target, id);
    } else if (entry.isFile) {
      // written anew, not copied: a copy may keep the source's mtime (a clone on APFS does), and a
      // file of the same size and mtime as the one git indexed would read as unchanged
      const { mode } = await Deno.stat(source);
      await Deno.writeFile(target, await Deno.readFile(source), { mode: (mode ?? 0o644) & 0o755 });
    } else {
      throw new UsageError(
        `Eval case "${id}" holds ${source}, which is not a regular file or folder: a case tree holds files only`,
      );
    }
  }
}

/** Remove everything in `root` but `.git`. */
async function emptyWorktree(root: string): Promise<void> {
  for await (const entry of Deno.readDir(root)) {
    if (entry.name !== ".git") await Deno.remove(join(root, entry.name), { recursive: true });
  }
}

/** Git in the case's repository: no global or system config, the case's identity. */
function caseGit(runner: Runner, root: string, args: readonly string[]) {
  return git(runner, root, args, { isolated: true, env: { ...IDENTITY } });
}

/**
 * Commit everything in the worktree (ignored files too: the tree is exactly the folder), every
 * file hashed again from an empty index: no stat data decides what changed.
 */
async function commitAll(runner: Runner, root: string, message: string): Promise<string> {
  await caseGit(runner, root, ["read-tree", "--empty"]);
  await caseGit(runner, root, ["add", "-A", "-f"]);
  await caseGit(runner, root, ["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
  return new TextDecoder().decode(await caseGit(runner, root, ["rev-parse", "HEAD"])).trim();
}

/** Make the change in the worktree: the after/ tree, or the patch applied. */
async function applyChange(runner: Runner, root: string, evalCase: EvalCase): Promise<void> {
  if (evalCase.change.form === "after") {
    await emptyWorktree(root);
    await copyTree(evalCase.change.dir, root, evalCase.id);
    return;
  }
  const args = ["apply", "--whitespace=nowarn", evalCase.change.file];
  const applied = await runGit(runner, root, args, { isolated: true });
  if (applied.code !== 0) {
    throw new UsageError(
      `Eval case "${evalCase.id}": change.patch does not apply to base/: ${stderrTail(applied)}`,
    );
  }
}

/**
 * The lines each file's section of the patch `base..head` added or edited, as the review's own
 * patch shows them (lib/git/collect.ts `PATCH_ARGS`, renames found).
 */
async function changedLinesOf(
  runner: Runner,
  root: string,
  commits: { base: string; head: string },
): Promise<Map<string, LineRange[]>> {
  const patch = await caseGit(runner, root, [
    "diff-tree",
    "-r",
    "-M",
    ...PATCH_ARGS,
    commits.base,
    commits.head,
  ]);
  const changed = new Map<string, LineRange[]>();
  const text = new TextDecoder().decode(patch);
  const starts = [...text.matchAll(/^diff --git /gm)].map((m) => m.index);
  const encoder = new TextEncoder();
  for (const [i, start] of starts.entries()) {
    const section = encoder.encode(text.slice(start, starts[i + 1] ?? text.length));
    const { newPath } = sectionPaths(section);
    if (newPath !== null) changed.set(newPath, changedLineRanges(section));
  }
  return changed;
}

/** Check each defect against the tree after the change; notes for defects on unchanged lines. */
async function checkOracle(
  evalCase: EvalCase,
  root: string,
  changed: ReadonlyMap<string, readonly LineRange[]>,
): Promise<string[]> {
  const notes: string[] = [];
  const realRoot = await Deno.realPath(root);
  for (const d of evalCase.defects) {
    // the oracle's path is plain (lib/eval/case_file.ts), but a patch can make any part of it a
    // symlink: only a regular file whose real path is inside the case's tree is read
    const path = join(root, d.file);
    const real = await Deno.realPath(path).catch(() => null);
    if (real === null) {
      throw new UsageError(
        `Eval case "${evalCase.id}": its defect's file "${d.file}" is not in the tree after the change`,
      );
    }
    const info = real.startsWith(`${realRoot}/`) ? await Deno.lstat(path) : null;
    if (!info?.isFile) {
      throw new UsageError(
        `Eval case "${evalCase.id}": its defect's file "${d.file}" is not a regular file in the tree after the change (a symlink, or under one)`,
      );
    }
    const bytes = await Deno.readFile(path);
    const lines = countTextLines(bytes);
    if (d.line_end > lines) {
      throw new UsageError(
        `Eval case "${evalCase.id}": its defect ends at line ${d.line_end}, past the end of "${d.file}" (${lines} lines)`,
      );
    }
    const touched = (changed.get(d.file) ?? []).some((r) =>
      r.start <= d.line_end && d.line_start <= r.end
    );
    if (!touched) {
      notes.push(
        `case ${evalCase.id}: its defect at ${d.file}:${d.line_start}-${d.line_end} is on no line the change added or edited, so a finding there also counts as hallucinated`,
      );
    }
  }
  return notes;
}

/**
 * Build the repository of `evalCase` in `root`.
 *
 * @param runner the subprocess seam
 * @param evalCase the case
 * @param root an empty folder that becomes the repository's worktree
 * @returns the repository, its two commits and the lines the change touched
 * @throws {UsageError} a case tree holding a symlink or `.git`, a patch that does not apply, a
 *   change that changes nothing, a defect whose file is not in the tree after the change or whose
 *   lines run past its end
 * @throws {import("../base/errors.ts").GitError} when git itself fails
 */
export async function buildCaseRepo(
  runner: Runner,
  evalCase: EvalCase,
  root: string,
): Promise<CaseRepo> {
  await caseGit(runner, root, ["init", "-q", "-b", "main", "--template="]);
  await copyTree(evalCase.base, root, evalCase.id);
  const base = await commitAll(runner, root, "base");
  await applyChange(runner, root, evalCase);
  const head = await commitAll(runner, root, evalCase.title);
  const same = await runGit(runner, root, ["diff-tree", "--quiet", base, head], { isolated: true });
  if (same.code === 0) {
    throw new UsageError(`Eval case "${evalCase.id}": its change changes nothing in base/`);
  }
  const changed = await changedLinesOf(runner, root, { base, head });
  const notes = await checkOracle(evalCase, root, changed);
  return { root, base, head, changed, notes };
}
