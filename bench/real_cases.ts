/**
 * (f) Real code: 30 successive published versions of a mid-sized npm library (moment 2.18.0 →
 * 2.31.0: src/, locales, the bundles and typings), each version's tarball (`npm pack`, from the
 * npm registry or npm's cache) one commit, and the whole range reviewed in parts with
 * `--max-calls 16` and the instant fake provider. Rows: `git diff` of the range (the baseline),
 * `review --plan-only` and the whole review; the notes give coverage and calls from the `--json`
 * envelope. The default excludes apply as for a user (the built `dist/` and minified files are
 * left out by rule and named, not counted as reviewed). Needs the npm registry (or a warm npm
 * cache) once, in the first row's setup.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, CaseFactory } from "./case_types.ts";
import { git } from "./gen_repo.ts";
import type { Measurement } from "./measure.ts";

/** The package and its 30 versions, oldest first (stable releases only). */
const PACKAGE = "moment";
const VERSIONS = [
  "2.18.0",
  "2.18.1",
  "2.19.0",
  "2.19.1",
  "2.19.2",
  "2.19.3",
  "2.19.4",
  "2.20.0",
  "2.20.1",
  "2.21.0",
  "2.22.0",
  "2.22.1",
  "2.22.2",
  "2.23.0",
  "2.24.0",
  "2.25.0",
  "2.25.1",
  "2.25.2",
  "2.25.3",
  "2.26.0",
  "2.27.0",
  "2.28.0",
  "2.29.0",
  "2.29.1",
  "2.29.2",
  "2.29.3",
  "2.29.4",
  "2.30.0",
  "2.30.1",
  "2.31.0",
];

/** Fetch every tarball into `packs` with one `npm pack`; returns their paths, oldest first. */
async function packAll(packs: string): Promise<string[]> {
  await Deno.mkdir(packs, { recursive: true });
  const out = await new Deno.Command("npm", {
    args: ["pack", "--silent", ...VERSIONS.map((v) => `${PACKAGE}@${v}`)],
    cwd: packs,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`npm pack failed: ${new TextDecoder().decode(out.stderr).slice(-500)}`);
  }
  return VERSIONS.map((v) => join(packs, `${PACKAGE}-${v}.tgz`));
}

/** A repository whose commits are the versions, one each; returns the range `first..last`. */
async function versionsRepo(root: string, tarballs: string[]): Promise<string> {
  await Deno.mkdir(root, { recursive: true });
  await git(root, ["init", "-q", "-b", "main"]);
  for (const [i, tarball] of tarballs.entries()) {
    for await (const entry of Deno.readDir(root)) {
      if (entry.name !== ".git") await Deno.remove(join(root, entry.name), { recursive: true });
    }
    const tar = await new Deno.Command("tar", {
      args: ["-xzf", tarball, "--strip-components=1", "-C", root],
    }).output();
    if (!tar.success) throw new Error(`tar -xzf ${tarball} failed`);
    await git(root, ["add", "-A"]);
    await git(root, [
      "-c",
      "commit.gpgsign=false",
      "commit",
      "-q",
      "-m",
      `${PACKAGE} ${VERSIONS[i]}`,
    ]);
    if (i === 0) await git(root, ["tag", "first"]);
  }
  return "first..main";
}

function describeReview(m: Measurement): string {
  const json = JSON.parse(m.outputs[0]);
  const c = json.coverage;
  const excluded = json.rules?.excluded?.length ?? 0;
  return `${json.status}, coverage ${c?.status}: ${c?.reviewedLines} of ${
    (c?.reviewedLines ?? 0) + (c?.omittedLines ?? 0)
  } changed lines in ${c?.chunks ? `${c.chunks.reviewed}/${c.chunks.planned}` : "1/1"} parts` +
    `; ${excluded} files excluded by rule (dist/, lockfiles)`;
}

/** (f): the real package's version range. */
export const realCases: CaseFactory = (ctx) => {
  const group = `(f) real code: ${PACKAGE} ${VERSIONS[0]}→${VERSIONS.at(-1)}, 30 versions`;
  const root = join(ctx.tmp, "real-versions");
  const range = "first..main";
  const rows: BenchCase[] = [
    {
      group,
      name: "git diff (baseline)",
      baseline: true,
      cmd: ["git", "--no-pager", "diff", "--no-color", "first", "main"],
      cwd: root,
      runs: 3,
      setup: async () => {
        await versionsRepo(root, await packAll(join(ctx.tmp, "real-packs")));
      },
      describe: (m) => {
        let lines = 0;
        for (let i = 0; i < m.outputs[0].length; i++) if (m.outputs[0][i] === "\n") lines++;
        return `${lines} diff lines, ${(m.outputs[0].length / 1048576).toFixed(1)} MiB`;
      },
    },
    {
      group,
      name: "review --plan-only --max-calls 16",
      cmd: [
        ...ctx.reviewGate,
        "review",
        "--range",
        range,
        "--max-calls",
        "16",
        "--plan-only",
        "--json",
      ],
      cwd: root,
      env: ctx.env,
      runs: 3,
      describe: (m) => {
        const plan = JSON.parse(m.outputs[0]);
        return `${plan.calls} parts planned, coverage ${plan.coverage.status}`;
      },
    },
    {
      group,
      name: "review --max-calls 16 (jobs 4)",
      cmd: [
        ...ctx.reviewGate,
        "review",
        "--range",
        range,
        "--max-calls",
        "16",
        "--no-cache",
        "--json",
      ],
      cwd: root,
      env: ctx.env,
      runs: 3,
      describe: describeReview,
    },
  ];
  return rows;
};
