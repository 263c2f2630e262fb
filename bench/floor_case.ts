/**
 * The one-shot floors of `review` (group (a)): what any program started once per review must pay
 * before its own work — an empty `deno run` — plus git's own time for the calls the review path
 * makes on the same change, with the same arguments, config overrides and environment
 * (lib/git/git.ts), run back to back from one shell script, and for a fresh review the provider
 * process alone (the fake, with the argv and prompt `review` sent it):
 *
 * - a fresh review (`--no-cache`): `rev-parse`, `add -A` into a private index copy,
 *   `write-tree`, `diff-tree --raw -p`, `check-attr --stdin`, `status` (the read-only proof,
 *   before), `ls-tree` + `cat-file --batch` (the workspace copy), `status` (the proof, after),
 *   then the provider;
 * - a cache hit: the calls that prove the change is the one reviewed — `rev-parse`, `add -A`,
 *   `write-tree`, `diff-tree --raw -p` (the listing and the plan the key names), `check-attr`
 *   (the path filter's attributes).
 *
 * Their stdin (the changed paths, the blob ids, the prompt) is prepared once in `setup`, so no
 * extra program runs in the measured script beyond `sh` and one `cp` of the index. The row's git
 * calls ({@linkcode FloorCase.gitCalls}) are compared with the review row's own, counted with
 * strace ({@linkcode gitCallsDiffer}): a floor that no longer makes the review's calls does not
 * judge its target.
 *
 * @module
 */
import { join } from "node:path";
import { PATCH_ARGS } from "../lib/git/collect.ts";
import { BASE_ARGS as BASE, GIT_ENV, HARDENING_ARGS, HOOKS_OFF } from "../lib/git/git.ts";
import { statusArgs } from "../lib/git/status_listing.ts";
import { type BenchCase, type BenchContext, DENO_RUN } from "./case_types.ts";
import type { GeneratedRepo } from "./gen_repo.ts";
import type { Measurement } from "./measure.ts";
import type { ChildCount } from "./children.ts";

const STATUS = statusArgs("none");
const DIFF_TREE = ["diff-tree", "-r", "-z", "-M", "--raw", ...PATCH_ARGS];

/** Shell-quote one word. */
function q(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

async function gitOut(repo: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command("git", {
    args: [...BASE, ...args],
    cwd: repo,
    env: { ...GIT_ENV, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
  return out.stdout;
}

/** Which review path a floor stands for. */
export type FloorPath = "fresh" | "hit";

/** The git subcommands each path's floor runs, in order. */
export const FLOOR_GIT_CALLS: Readonly<Record<FloorPath, readonly string[]>> = {
  fresh: [
    "rev-parse",
    "add",
    "write-tree",
    "diff-tree",
    "check-attr",
    "status",
    "ls-tree",
    "cat-file",
    "status",
  ],
  hit: ["rev-parse", "add", "write-tree", "diff-tree", "check-attr"],
};

/** A floor row: a bench case and the git subcommands its script runs. */
export interface FloorCase extends BenchCase {
  gitCalls: readonly string[];
}

/**
 * How a row's git calls differ from its floor's (pure).
 *
 * @param floor the floor's git subcommands
 * @param counted the row's child processes (bench/children.ts), null when not counted
 * @returns undefined when the two make the same git calls (by subcommand and count), else one line
 */
export function gitCallsDiffer(
  floor: readonly string[],
  counted: ChildCount | null,
): string | undefined {
  if (counted === null) return "the row's git calls were not counted (strace missing)";
  const want = new Map<string, number>();
  for (const name of floor) want.set(`git ${name}`, (want.get(`git ${name}`) ?? 0) + 1);
  const names = new Set([
    ...want.keys(),
    ...Object.keys(counted.byName).filter((n) => n.startsWith("git")),
  ]);
  const diffs = [...names].sort().flatMap((name) => {
    const row = counted.byName[name] ?? 0;
    const base = want.get(name) ?? 0;
    return row === base ? [] : [`${name} ×${row} in the row, ×${base} in the floor`];
  });
  return diffs.length > 0 ? diffs.join(", ") : undefined;
}

/** The floor script's line of each git call, by subcommand; `d` is the quoted scratch dir. */
function gitLines(d: string): Record<string, string> {
  const git = ["git", ...BASE, ...HARDENING_ARGS].map(q).join(" ");
  const quiet = HOOKS_OFF.map(q).join(" ");
  const indexed = `GIT_INDEX_FILE=${d}/index ${git} ${quiet}`;
  return {
    "rev-parse": `${git} rev-parse --show-toplevel --absolute-git-dir --path-format=absolute ` +
      `--git-common-dir --git-path hooks --show-object-format --verify -q HEAD >/dev/null`,
    add: `cp .git/index ${d}/index && ${indexed} add -A --ignore-errors --sparse`,
    "write-tree": `tree=$(${indexed} write-tree)`,
    "diff-tree": `${git} ${quiet} ${DIFF_TREE.join(" ")} HEAD "$tree" >/dev/null`,
    "check-attr": `${git} ${quiet} check-attr -z --stdin linguist-generated diff <${d}/paths ` +
      `>/dev/null`,
    status: `${git} ${quiet} ${STATUS.join(" ")} >/dev/null`,
    "ls-tree": `${git} ${quiet} ls-tree -r -z -l --full-tree "$tree" >/dev/null`,
    "cat-file": `${git} ${quiet} cat-file --batch <${d}/objects >/dev/null`,
  };
}

/**
 * The floor row of one review path on `repo`'s uncommitted change.
 *
 * @param group the bench group the row joins
 * @param ctx the bench context (temp dir, environment)
 * @param repo the repository the review is measured in
 * @param options the path; for a fresh review, the provider run alone (argv from its first entry,
 *   the prompt on stdin), read when the row's `setup` runs; a name for the temp dir
 * @returns one case; its `setup` writes the script and the stdin files under `ctx.tmp`
 */
export function oneShotFloorCase(
  group: string,
  ctx: BenchContext,
  repo: GeneratedRepo,
  options: {
    path: FloorPath;
    name: string;
    provider?: () => { argv: readonly string[]; stdin: string };
  },
): FloorCase {
  const dir = join(ctx.tmp, `floor-${options.path}`);
  const script = join(dir, "floor.sh");
  const calls = FLOOR_GIT_CALLS[options.path];
  return {
    group,
    name: options.name,
    cmd: ["sh", script],
    cwd: repo.root,
    env: ctx.env,
    runs: 11,
    gitCalls: calls,
    setup: async () => {
      await Deno.mkdir(dir, { recursive: true });
      const empty = join(dir, "empty.ts");
      await Deno.writeTextFile(empty, "");
      // The tree review would record, and the stdin of the two --stdin/--batch calls.
      const index = join(dir, "setup-index");
      await Deno.copyFile(join(repo.root, ".git", "index"), index);
      await gitOut(repo.root, ["add", "-A", "--ignore-errors", "--sparse"], {
        GIT_INDEX_FILE: index,
      });
      const decoder = new TextDecoder();
      const tree = decoder.decode(
        await gitOut(repo.root, ["write-tree"], { GIT_INDEX_FILE: index }),
      ).trim();
      await Deno.writeFile(
        join(dir, "paths"),
        await gitOut(repo.root, ["diff-tree", "-r", "-z", "--name-only", "HEAD", tree]),
      );
      const blobs = decoder.decode(await gitOut(repo.root, ["ls-tree", "-r", tree]))
        .split("\n").filter((l) => l.includes(" blob ")).map((l) => l.split(/\s+/)[2]);
      await Deno.writeTextFile(join(dir, "objects"), blobs.join("\n") + "\n");
      const env = Object.entries(GIT_ENV).map(([k, v]) => `${k}=${q(v)}`).join(" ");
      const d = q(dir);
      const lines = gitLines(d);
      const provider = options.provider?.();
      if (provider) await Deno.writeTextFile(join(dir, "prompt"), provider.stdin);
      await Deno.writeTextFile(
        script,
        [
          "set -e",
          `export ${env}`,
          `${[...DENO_RUN, empty].map(q).join(" ")}`,
          ...calls.map((name) => lines[name]),
          ...(provider ? [`${provider.argv.map(q).join(" ")} <${d}/prompt >/dev/null`] : []),
          `echo "$tree"`,
          "",
        ].join("\n"),
      );
    },
    verify: (m: Measurement) => {
      if (!m.outputs.every((o) => /^[0-9a-f]{40,64}\s*$/.test(o))) {
        throw new Error(`the floor script did not end with a tree id: ${m.outputs[0]}`);
      }
      return Promise.resolve();
    },
  };
}
