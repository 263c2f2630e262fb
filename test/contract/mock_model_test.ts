/**
 * `deno task mock-model` as the README's "Try a real agent CLI offline" uses it: the script runs as
 * its own process, its printed `export` lines for one CLI are the only settings a review gets
 * (plus `REVIEW_GATE_<NAME>_BIN` naming the pinned install, which `npm i -g` would put on PATH), and
 * `review-gate review --provider <name>` on the demo's sample change must come back with the mock's
 * one finding on the first added line — for each real CLI of the contract suite. Then Ctrl-C (a
 * SIGINT) stops the script, which removes the files it wrote.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { copy } from "../../fixtures/copy_tree.ts";
import type { MockCli } from "../../fixtures/mock_model/cli_setup.ts";
import {
  copilotPkgCache,
  findCli,
  git,
  haveCli,
  makeSandbox,
  type Sandbox,
  scrubbedEnv,
} from "./env.ts";
import { exists, runMainResult } from "./harness.ts";

const SCRIPT = new URL("../../scripts/mock_model.ts", import.meta.url).pathname;
const SAMPLE = new URL("../../fixtures/sample/", import.meta.url).pathname;
const CLIS: readonly MockCli[] = ["claude", "codex", "qwen", "gemini", "copilot", "opencode"];

/** The running script: its printed settings per CLI, and how to stop it. */
interface Script {
  settings: Map<string, Record<string, string>>;
  banner: string;
  stop(): Promise<{ code: number; stderr: string }>;
}

/** The value of an `export NAME=value` line, unquoted as a POSIX shell would (`'…'`, `'\''`). */
function shellValue(text: string): string {
  if (!text.startsWith("'")) return text;
  return text.slice(1, -1).replaceAll(`'\\''`, "'");
}

/** `# name (…)` sections of `export` lines, as the banner prints them. */
function parseBanner(banner: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const line of banner.split("\n")) {
    const head = /^# (\w+) \(/.exec(line);
    if (head) out.set(head[1], current = {});
    const exported = /^export ([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (exported && current) current[exported[1]] = shellValue(exported[2]);
    if (line === "") current = undefined;
  }
  return out;
}

/** Start the script as a user does and read its banner (up to the "Stop with Ctrl-C" line). */
async function startScript(): Promise<Script> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read", "--allow-write", "--allow-env", SCRIPT],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  while (!banner.includes("Stop with Ctrl-C")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`mock-model exited before listening: ${await stderr}`);
    banner += value;
  }
  return {
    settings: parseBanner(banner),
    banner,
    stop: async () => {
      child.kill("SIGINT");
      const status = await child.status;
      await reader.cancel();
      return { code: status.code, stderr: await stderr };
    },
  };
}

/** The demo's repository: fixtures/sample/before committed, after in the working tree. */
async function sampleRepo(sb: Sandbox): Promise<string> {
  const repo = join(sb.dir, "demo");
  await Deno.mkdir(repo);
  await git(repo, "init", "-q", "-b", "main");
  await copy(join(SAMPLE, "before"), repo);
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "Pagination helper");
  await copy(join(SAMPLE, "after"), repo);
  return await Deno.realPath(repo);
}

Deno.test("mock-model: a review with each real CLI pointed at it by the printed lines gets the mock's finding", async (t) => {
  const sb = await makeSandbox();
  const script = await startScript();
  let stopped: { code: number; stderr: string };
  try {
    assert.deepEqual([...script.settings.keys()], CLIS, script.banner);
    const repo = await sampleRepo(sb);
    for (const cli of CLIS) {
      await t.step({
        name: cli,
        ignore: !haveCli(cli),
        fn: async () => {
          const env = {
            ...Deno.env.toObject(),
            ...scrubbedEnv(),
            HOME: sb.home,
            NO_PROXY: "127.0.0.1",
            COPILOT_PKG_CACHE_HOME: copilotPkgCache(),
            [`REVIEW_GATE_${cli.toUpperCase()}_BIN`]: findCli(cli)!,
            ...script.settings.get(cli),
          };
          const args = ["review", "--provider", cli, "--no-cache", "--timeout", "60"];
          const out = await runMainResult(repo, args, env);
          const why = `${cli}: exit ${out.code}\n${out.stdout}\n${out.stderr}`;
          assert.equal(out.code, 1, why);
          assert.match(
            out.stdout,
            new RegExp(`^review-gate: needs attention .*\\(${cli}[ ,]`, "m"),
            why,
          );
          assert.match(out.stdout, /First changed line \(mock model finding\)/, why);
          assert.match(out.stdout, /src\/pages\.ts:3 /, why);
        },
      });
    }
  } finally {
    stopped = await script.stop();
    await sb.cleanup();
  }
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stderr, /mock-model: stopped/);
  const codexHome = script.settings.get("codex")!.CODEX_HOME;
  assert.ok(codexHome, "the banner names codex's CODEX_HOME");
  assert.equal(await exists(dirname(codexHome)), false, "Ctrl-C removes the script's folder");
});
