/**
 * The one-shot floor of `review` (group (a)): what any program started once per review must pay
 * before its own work — an empty `deno run` — plus git's own time for the calls `review
 * --no-cache` makes on the same change, with the same arguments, config overrides and
 * environment (lib/git/git.ts), run back to back from one shell script:
 * `rev-parse`, `add -A` into a private index copy, `write-tree`, `diff-tree --raw -p`,
 * `check-attr --stdin`, `status` (the read-only proof, before), `ls-tree` + `cat-file --batch`
 * (the workspace copy), `status` (the proof, after). Their stdin (the changed paths, the blob
 * ids) is prepared once in `setup`, so no extra program runs in the measured script beyond `sh`
 * and one `cp` of the index. A review's time beyond this row and the fake's own row is the
 * time spent in our code between and around those calls.
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

/**
 * The floor row for `repo`'s uncommitted change.
 *
 * @param group the bench group the row joins
 * @param ctx the bench context (temp dir, environment)
 * @param repo the repository `review --no-cache` is measured in
 * @param onMeasured told the row's median wall ms (for the review row's note)
 * @returns one case; its `setup` writes the script and the stdin files under `ctx.tmp`
 */
export function oneShotFloorCase(
  group: string,
  ctx: BenchContext,
  repo: GeneratedRepo,
  onMeasured: (medianMs: number) => void,
): BenchCase {
  const dir = join(ctx.tmp, "one-shot-floor");
  const script = join(dir, "floor.sh");
  return {
    group,
    name: "one-shot floor: empty deno run + review's 9 git calls (sh)",
    cmd: ["sh", script],
    cwd: repo.root,
    env: ctx.env,
    runs: 11,
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
      const git = ["git", ...BASE, ...HARDENING_ARGS].map(q).join(" ");
      const quiet = HOOKS_OFF.map(q).join(" ");
      const env = Object.entries(GIT_ENV).map(([k, v]) => `${k}=${q(v)}`).join(" ");
      const d = q(dir);
      await Deno.writeTextFile(
        script,
        [
          "set -e",
          `export ${env}`,
          `${[...DENO_RUN, empty].map(q).join(" ")}`,
          `${git} rev-parse --show-toplevel --absolute-git-dir --path-format=absolute ` +
          `--git-common-dir --git-path hooks --show-object-format --verify -q HEAD >/dev/null`,
          `cp .git/index ${d}/index`,
          `GIT_INDEX_FILE=${d}/index ${git} ${quiet} add -A --ignore-errors --sparse`,
          `tree=$(GIT_INDEX_FILE=${d}/index ${git} ${quiet} write-tree)`,
          `${git} ${quiet} ${DIFF_TREE.join(" ")} HEAD "$tree" >/dev/null`,
          `${git} ${quiet} check-attr -z --stdin linguist-generated diff <${d}/paths >/dev/null`,
          `${git} ${quiet} ${STATUS.join(" ")} >/dev/null`,
          `${git} ${quiet} ls-tree -r -z -l --full-tree "$tree" >/dev/null`,
          `${git} ${quiet} cat-file --batch <${d}/objects >/dev/null`,
          `${git} ${quiet} ${STATUS.join(" ")} >/dev/null`,
          `echo "$tree"`,
          "",
        ].join("\n"),
      );
    },
    verify: (m: Measurement) => {
      onMeasured(m.medianMs);
      if (!m.outputs.every((o) => /^[0-9a-f]{40,64}\s*$/.test(o))) {
        throw new Error(`the floor script did not end with a tree id: ${m.outputs[0]}`);
      }
      return Promise.resolve();
    },
  };
}
