/**
 * Generate a throwaway git repository holding an uncommitted change of about `targetLines` lines
 * of `git diff` output: many TypeScript-like files of varied size (log-uniform between
 * `minFileLines` and `maxFileLines`), about 70 % modified (one line in ten rewritten: one hunk per
 * edit), 20 % added and 10 % deleted. Added files are marked intent-to-add (`git add -N`) so a plain
 * `git diff` shows the same change `review-gate review` sees (worktree incl. untracked).
 *
 * Deterministic for a given seed. Git runs isolated from the user's and the system's config.
 *
 * @module
 */
import { dirname, join } from "node:path";

/** Environment for every git call of the bench (also given to the measured commands). */
export const BENCH_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

/** Shape of the generated change. */
export interface GenOptions {
  /**
   * Wanted lines of `git diff` output (reached approximately); with `count: "changed"`, wanted
   * changed lines (added plus deleted) instead.
   */
  targetLines: number;
  /** What `targetLines` counts: diff lines (default) or changed lines. */
  count?: "diff" | "changed";
  minFileLines: number;
  maxFileLines: number;
  seed: number;
}

/** A generated repository. */
export interface GeneratedRepo {
  root: string;
  /** Actual lines of `git diff` output. */
  diffLines: number;
  /** Actual bytes of `git diff` output. */
  diffBytes: number;
  modified: number;
  added: number;
  deleted: number;
  /** Changed lines of the diff (added plus deleted, headers not counted). */
  changedLines?: number;
}

/** mulberry32: a small deterministic PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "alpha",
  "budget",
  "cache",
  "delta",
  "entry",
  "frame",
  "gate",
  "hunk",
  "index",
  "jolt",
];

function sourceLines(random: () => number, count: number, tag: number): string[] {
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  return Array.from(
    { length: count },
    (_, i) =>
      i % 12 === 0
        ? `export function ${word()}${tag}_${i}(input: number): number {`
        : i % 12 === 11
        ? "}"
        : `  const ${word()}${i} = compute(input, ${
          Math.floor(random() * 1e6)
        }, "${word()}"); // ${word()}`,
  );
}

/**
 * Lines of `git diff` an edit of a file of `lines` lines produces (headers included), or with
 * `count` "changed" its added plus deleted lines (a modified file rewrites one line in ten).
 */
function estimate(
  kind: "modified" | "added" | "deleted",
  lines: number,
  count: "diff" | "changed" = "diff",
): number {
  if (count === "changed") return kind === "modified" ? 2 * Math.ceil((lines - 5) / 10) : lines;
  return kind === "modified" ? 4 + 9 * Math.floor(lines / 10) : 6 + lines;
}

/** Added plus deleted lines of a `git diff` text (its `---`/`+++` file headers not counted). */
export function changedLinesOf(diff: Uint8Array): number {
  let changed = 0;
  let start = 0;
  while (start < diff.length) {
    let end = diff.indexOf(10, start);
    if (end < 0) end = diff.length;
    const first = diff[start];
    if (first === 0x2b || first === 0x2d) {
      const header = end - start >= 4 && diff[start + 1] === first && diff[start + 2] === first &&
        diff[start + 3] === 0x20;
      if (!header) changed++;
    }
    start = end + 1;
  }
  return changed;
}

/**
 * Run git in `cwd` with {@linkcode BENCH_GIT_ENV}.
 * @returns stdout bytes
 * @throws Error naming the command and git's stderr when git exits non-zero
 */
export async function git(cwd: string, args: string[]): Promise<Uint8Array> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: BENCH_GIT_ENV,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return out.stdout;
}

/**
 * Create the repository under `parent` (a temp dir the caller removes).
 *
 * @throws {Error} when git fails
 */
export async function generateRepo(
  parent: string,
  name: string,
  options: GenOptions,
): Promise<GeneratedRepo> {
  const root = join(parent, name);
  await Deno.mkdir(root, { recursive: true });
  await git(root, ["init", "-q", "-b", "main"]);
  const random = prng(options.seed);
  const span = Math.log(options.maxFileLines / options.minFileLines);
  const plan: { path: string; kind: "modified" | "added" | "deleted"; lines: number }[] = [];
  for (let total = 0, i = 0; total < options.targetLines; i++) {
    const lines = Math.round(options.minFileLines * Math.exp(random() * span));
    const roll = random();
    const kind = roll < 0.7 ? "modified" : roll < 0.9 ? "added" : "deleted";
    plan.push({ path: `src/mod${i % 23}/file_${i}.ts`, kind, lines });
    total += estimate(kind, lines, options.count);
  }
  const write = async (path: string, lines: string[]) => {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), lines.join("\n") + "\n");
  };
  const bodies = new Map<string, string[]>();
  for (const [i, file] of plan.entries()) {
    if (file.kind === "added") continue;
    const lines = sourceLines(random, file.lines, i);
    bodies.set(file.path, lines);
    await write(file.path, lines);
  }
  await git(root, ["add", "-A"]);
  await git(root, ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "base"]);
  for (const [i, file] of plan.entries()) {
    if (file.kind === "deleted") await Deno.remove(join(root, file.path));
    else if (file.kind === "added") await write(file.path, sourceLines(random, file.lines, i));
    else {
      const lines = bodies.get(file.path)!.map((line, n) => n % 10 === 5 ? `${line} + ${n}` : line);
      await write(file.path, lines);
    }
  }
  const added = plan.filter((f) => f.kind === "added").map((f) => f.path);
  for (let i = 0; i < added.length; i += 500) {
    await git(root, ["add", "-N", "--", ...added.slice(i, i + 500)]);
  }
  const diff = await git(root, ["--no-pager", "diff", "--no-color"]);
  let diffLines = 0;
  for (const byte of diff) if (byte === 10) diffLines++;
  return {
    root,
    diffLines,
    diffBytes: diff.length,
    modified: plan.filter((f) => f.kind === "modified").length,
    added: added.length,
    deleted: plan.filter((f) => f.kind === "deleted").length,
    changedLines: changedLinesOf(diff),
  };
}
