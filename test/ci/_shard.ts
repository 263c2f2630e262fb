/**
 * What the sharded end-to-end tests share (test/ci/shard_test.ts, test/ci/shard_breaker_test.ts):
 * a pull request of twelve files planned in several parts, `ci --shard i/n` run side by side as a
 * matrix runs its jobs (each in its own checkout), `merge`, and the edits a forger makes to a shard
 * result file.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliResult, runCli } from "../e2e/_cli.ts";
import { ciCheckout, type CiSandbox, githubEnv, makeCiSandbox } from "./_ci.ts";

/** Twelve files of the request in three folders; budgets that fit about three files a part. */
export function requestFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 12; f++) {
    const body = Array.from({ length: 40 }, (_, i) => `const v${i} = "${"x".repeat(50)}${f}";`);
    files[`d${f % 3}/f${String(f).padStart(2, "0")}.ts`] = body.join("\n") + "\n";
  }
  return files;
}

export const BUDGETS = JSON.stringify({ budgets: { file_bytes: 4096, total_bytes: 8192 } });
export const FIRST_LINE =
  new URL("../../fixtures/fake/scenarios/first_changed_line.json", import.meta.url)
    .pathname;

export interface Json {
  status: string;
  exitCode: number;
  answer?: { findings: { file: string; line_start: number }[]; summary: string };
  findingNotes?: { fingerprint: string }[];
  coverage: {
    status: string;
    omitted: { path: string; reason: string; shard?: string }[];
    chunks?: { planned: number; reviewed: number; failed: number };
  };
  message?: string;
}

/** Run `fn` on the twelve-file request ({@linkcode requestFiles}) and `extra` files of the request. */
export async function withShards(
  fn: (sb: CiSandbox, env: Record<string, string>) => Promise<void>,
  extra: Record<string, string> = {},
) {
  const sb = await makeCiSandbox("merge", {
    base: { ".review-gate.json": BUDGETS },
    request: { ...requestFiles(), ...extra },
  });
  try {
    await fn(sb, await githubEnv(sb));
  } finally {
    await sb.cleanup();
  }
}

/** A matrix runner's own checkout of the request, made once per shard number. */
export async function runnerCheckout(sb: CiSandbox, shard: number): Promise<string> {
  const workspace = join(sb.dir, `runner-${shard}`);
  const made = await Deno.stat(workspace).then(() => true, () => false);
  if (!made) await ciCheckout(sb, "merge", workspace);
  return workspace;
}

/**
 * Run `ci --shard i/n` for the given shards at once, as a matrix's jobs run: each in its own
 * checkout, as each runner has its own.
 */
export async function shards(
  sb: CiSandbox,
  env: Record<string, string>,
  dir: string,
  count: number,
  at: { only?: number[]; scenario?: string; args?: string[] } = {},
) {
  const which = at.only ?? Array.from({ length: count }, (_, i) => i + 1);
  const workspaces = await Promise.all(which.map((i) => runnerCheckout(sb, i)));
  const ran = await Promise.all(which.map((i, n) =>
    runCli(sb, [
      "ci",
      "--shard",
      `${i}/${count}`,
      "--shard-output",
      join(dir, `shard-${i}.json`),
      ...at.args ?? [],
    ], {
      cwd: workspaces[n],
      scenario: at.scenario ?? FIRST_LINE,
      env: { ...env, GITHUB_WORKSPACE: workspaces[n] },
    })
  ));
  for (const r of ran) assert.equal(r.code, 0, `a shard never gates: ${r.stderr}`);
  return ran;
}

/** The JSON envelope a run wrote to `file` (under GitHub Actions stdout is fenced). */
export async function jsonOf(sb: CiSandbox, file: string): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(join(sb.workspace, file)));
}

/** `review-gate merge ARGS…` in the request's workspace (the aggregator job). */
export function merge(
  sb: CiSandbox,
  env: Record<string, string | undefined>,
  args: string[],
): Promise<CliResult> {
  return runCli(sb, ["merge", ...args], { cwd: sb.workspace, scenario: FIRST_LINE, env });
}

export async function copyDir(from: string, to: string, skip: string[] = []): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (!skip.includes(e.name)) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

export async function editJson(path: string, edit: (value: Record<string, unknown>) => void) {
  const value = JSON.parse(await Deno.readTextFile(path));
  edit(value);
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
}

/** Recompute a shard file's digest after an edit (as a forger would): only the decoder catches it. */
export async function redigest(path: string): Promise<void> {
  const { shardDigest } = await import("../../lib/review/shard_file.ts");
  const value = JSON.parse(await Deno.readTextFile(path));
  delete value.digest;
  value.digest = await shardDigest(value);
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
}
