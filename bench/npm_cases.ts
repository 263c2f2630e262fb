/**
 * (h) the npm-installed command (the project README's Install section): `npm pack` of this checkout installed with
 * `npm install -g --offline` into a prefix under the bench's temp dir, then `review-gate --version`
 * through the command npm put on PATH (`npm/review-gate`: `sh`, then the bundled deno with
 * Deno's cache inside the package) against a plain `deno run … main.ts --version` of the checkout,
 * measured in turns. Target: the installed command starts within 10% of the plain run (issue 25);
 * bench/README.md "(h)" records what it costs and why it is not met.
 * The install needs `deno@2.9.6` in npm's cache (any earlier `npm i -g deno@2.9.6` put it there).
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, CaseFactory } from "./case_types.ts";

async function npm(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("npm", { args, cwd, stdin: "null" }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    throw new Error(`npm ${args.join(" ")} failed:\n${text}`);
  }
}

/** The (h) rows. */
export const npmCases: CaseFactory = (ctx): BenchCase[] => {
  const group = "(h) npm-installed command";
  const dir = join(ctx.tmp, "npm");
  const command = join(dir, "prefix", "bin", "review-gate");
  let installed: Promise<void> | undefined;
  const setup = () =>
    installed ??= (async () => {
      await Deno.mkdir(dir, { recursive: true });
      await npm(["pack", "--silent", "--pack-destination", dir], ctx.projectRoot);
      const tarball = join(dir, "review-gate-0.1.0.tgz");
      await npm([
        "install",
        "-g",
        "--offline",
        "--silent",
        "--prefix",
        join(dir, "prefix"),
        tarball,
      ], dir);
    })();
  // every measured run (after the warm-up, which may fill Deno's compiled-module cache) must be a
  // quiet one: the version on stdout and nothing on stderr — a run that warns, downloads or
  // compiles each time is not the start-up the row claims to measure
  const verify = (m: { outputs: string[]; errors: string[] }): Promise<void> => {
    const bad = m.outputs.find((o) => o !== "0.1.0\n");
    if (bad !== undefined) {
      return Promise.reject(new Error(`--version printed ${JSON.stringify(bad)}`));
    }
    const noisy = m.errors.find((e) => e !== "");
    if (noisy !== undefined) {
      return Promise.reject(
        new Error(`a measured run was not quiet: stderr ${JSON.stringify(noisy.slice(0, 500))}`),
      );
    }
    return Promise.resolve();
  };
  return [
    {
      group,
      name: "deno run main.ts --version (floor)",
      baseline: true,
      cmd: [...ctx.reviewGate, "--version"],
      cwd: ctx.tmp,
      env: ctx.env,
      runs: 21,
      setup,
      verify,
    },
    {
      group,
      name: "review-gate --version, installed by npm",
      cmd: [command, "--version"],
      cwd: ctx.tmp,
      env: ctx.env,
      runs: 21,
      speedTarget: { id: "npm", floor: "deno run main.ts --version (floor)", max: 1.1 },
      setup,
      verify,
    },
  ];
};
