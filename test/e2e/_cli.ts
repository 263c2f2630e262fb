/**
 * End-to-end test helper: spawns the CLI exactly as a user does (`deno run … main.ts <args>`) with
 * its cwd in a throwaway git repository and the fake provider (fixtures/fake) wired in through
 * every provider's `REVIEW_GATE_<NAME>_BIN`. Every sandbox has its own `TMPDIR` (so tests can assert
 * no temp dir is left behind), `HOME`, `VIBE_HOME`, `XDG_CONFIG_HOME` and fake invocation log.
 * Captures stdout, stderr and the exit code separately, reads the fake's log and the run folder,
 * and snapshots the user's index, HEAD and worktree status for byte-identity checks.
 *
 * @module
 */
import { PROVIDER_NAMES, providerMetas, type ProviderName } from "../../lib/providers/registry.ts";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { makeTestRepo, TEST_GIT_ENV, type TestRepo } from "../../lib/git/test_repo.ts";
import type { RunRecord } from "../../lib/store/run_record.ts";

const here = (path: string) => fromFileUrl(new URL(path, import.meta.url));

/** Absolute path of the CLI entry point. */
export const MAIN: string = here("../../main.ts");
/** Directory of the fake provider wrappers. */
export const FAKE_BIN: string = here("../../fixtures/fake/bin");
/** Absolute path of the fixtures directory. */
export const FIXTURES: string = here("../../fixtures");

/** Every registered provider's name (lib/providers/registry.ts): the fake plays each. */
export const PROVIDERS: readonly ProviderName[] = PROVIDER_NAMES;
/** One provider name. */
export type Provider = ProviderName;

/** What one CLI run produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One line of the fake provider's JSONL log (fixtures/fake/effects.ts logInvocation). */
export interface FakeInvocation {
  cli: Provider;
  argv: string[];
  stdin: string | null;
  attempt: number;
  step: string;
  sessionId: string;
  grandchildPid?: number;
  schemaFile: string | null;
  env: Record<string, string>;
  /** Names of every variable the provider child got. */
  envNames: string[];
  cwd: string;
  pid: number;
}

/** A throwaway repository plus the private directories one CLI user needs. */
export interface Sandbox {
  repo: TestRepo;
  /** Per-sandbox directory holding tmp/, home/, vibe/, config/ and the fake log. */
  dir: string;
  /** The TMPDIR given to the CLI (must be empty after every run). */
  tmp: string;
  /** The fake's JSONL log. */
  log: string;
  /** Base environment for the CLI (fake wired in, no scenario). */
  env: Record<string, string>;
  /** Remove the repository and the directories. */
  cleanup(): Promise<void>;
}

let denoDir: string | undefined;

async function findDenoDir(): Promise<string> {
  if (denoDir) return denoDir;
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return denoDir = fromEnv;
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
    .output();
  return denoDir = JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
}

/**
 * Make a sandbox: a test repository (committed `files`, or unborn without) and private dirs.
 *
 * @param files repo-relative path → content, committed as "initial"; omit for an unborn branch
 */
export async function makeSandbox(files?: Record<string, string | Uint8Array>): Promise<Sandbox> {
  const repo = await makeTestRepo(files);
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "review-gate-e2e-" }));
  for (const sub of ["tmp", "home", "vibe", "config"]) await Deno.mkdir(join(dir, sub));
  const tmp = join(dir, "tmp");
  const log = join(dir, "fake.jsonl");
  const env: Record<string, string> = {
    ...TEST_GIT_ENV,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    TMPDIR: tmp,
    XDG_CONFIG_HOME: join(dir, "config"),
    DENO_DIR: await findDenoDir(),
    VIBE_HOME: join(dir, "vibe"),
    ...Object.fromEntries(
      providerMetas().map((meta) => [meta.binEnv, join(FAKE_BIN, meta.name)]),
    ),
    REVIEW_GATE_FAKE_DENO: Deno.execPath(),
    REVIEW_GATE_FAKE_LOG: log,
    NO_COLOR: "1",
  };
  return {
    repo,
    dir,
    tmp,
    log,
    env,
    cleanup: async () => {
      await repo.cleanup().catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Options of {@linkcode runCli} and {@linkcode spawnCli}. */
export interface RunOptions {
  /** Working directory (default: the sandbox repository root). */
  cwd?: string;
  /** The fake's scenario: comma-separated step kinds, or a path to a scenario JSON file. */
  scenario?: string;
  /** Extra or overriding environment variables (an `undefined` value removes the variable). */
  env?: Record<string, string | undefined>;
  /** Bytes or text for stdin (default: none). */
  stdin?: string | Uint8Array;
  /**
   * Start the CLI in a process group of its own, as a shell starts a foreground job: a signal to
   * `-pid` then reaches it and every child in its group, as a terminal's Ctrl-C does.
   */
  ownGroup?: boolean;
}

function cliCommand(sandbox: Sandbox, args: string[], options: RunOptions, piped: boolean) {
  const env: Record<string, string> = { ...sandbox.env };
  if (options.scenario !== undefined) env.REVIEW_GATE_FAKE_SCENARIO = options.scenario;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-run", MAIN, ...args],
    cwd: options.cwd ?? sandbox.repo.root,
    env,
    clearEnv: true,
    stdin: piped ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: options.ownGroup === true,
  });
}

/**
 * Run the CLI to completion.
 *
 * @param sandbox where and with which environment
 * @param args CLI arguments (without the program name)
 * @returns exit code, stdout and stderr (UTF-8 text)
 */
export async function runCli(
  sandbox: Sandbox,
  args: string[],
  options: RunOptions = {},
): Promise<CliResult> {
  const child = cliCommand(sandbox, args, options, options.stdin !== undefined).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(
      typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin,
    );
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/**
 * Start the CLI without waiting (for signals); stdin is null. The caller must await `output()`.
 *
 * @returns the child process
 */
export function spawnCli(
  sandbox: Sandbox,
  args: string[],
  options: RunOptions = {},
): Deno.ChildProcess {
  return cliCommand(sandbox, args, options, false).spawn();
}

/**
 * Every invocation the fake logged so far (empty when none). A line the fake is still writing (no
 * newline yet) is not counted: a test polling the log while a provider starts may read half of it.
 *
 * @param sandbox the sandbox whose log to read
 */
export async function readFakeLog(sandbox: Sandbox): Promise<FakeInvocation[]> {
  const text = await Deno.readTextFile(sandbox.log).catch(() => "");
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  return complete.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** A run folder's contents. */
export interface RunFolder {
  dir: string;
  run: RunRecord;
  /** File names relative to the folder, sorted (`transcript/attempt-1.stdout`, …). */
  files: string[];
  answer?: unknown;
  reviewMd?: string;
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) names.push(...await listFiles(join(dir, entry.name), rel));
    else names.push(rel);
  }
  return names.sort();
}

/**
 * Read a run folder.
 *
 * @param dir absolute run folder (from `Run folder:` output or the `--json` envelope)
 */
export async function readRunFolder(dir: string): Promise<RunFolder> {
  const files = await listFiles(dir);
  const run = JSON.parse(await Deno.readTextFile(join(dir, "run.json"))) as RunRecord;
  const folder: RunFolder = { dir, run, files };
  if (files.includes("answer.json")) {
    folder.answer = JSON.parse(await Deno.readTextFile(join(dir, "answer.json")));
  }
  if (files.includes("review.md")) {
    folder.reviewMd = await Deno.readTextFile(join(dir, "review.md"));
  }
  return folder;
}

/**
 * Every run folder of the sandbox repository, oldest first.
 *
 * @param sandbox the sandbox
 * @returns absolute paths (empty when none)
 */
export async function listRunDirs(sandbox: Sandbox): Promise<string[]> {
  const runs = join(sandbox.repo.root, ".git", "review-gate", "runs");
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(runs)) if (entry.isDirectory) names.push(entry.name);
  } catch {
    return [];
  }
  return names.sort().map((n) => join(runs, n));
}

/**
 * The newest run folder's contents (latest `startedAt`: run ids of one second do not sort by
 * time); throws when there is none.
 */
export async function lastRun(sandbox: Sandbox): Promise<RunFolder> {
  const dirs = await listRunDirs(sandbox);
  if (dirs.length === 0) throw new Error("no run folder was written");
  const folders = await Promise.all(dirs.map(readRunFolder));
  folders.sort((a, b) => a.run.startedAt.localeCompare(b.run.startedAt));
  return folders.at(-1)!;
}

/** The user's state a review must not touch. */
export interface RepoState {
  index: string;
  head: string;
  status: string;
}

/**
 * Snapshot `.git/index` bytes (hex; "" when absent), `.git/HEAD` and `git status --porcelain=v2 -z
 * --untracked-files=all` (which excludes the state dir under .git).
 */
export async function repoState(repo: TestRepo): Promise<RepoState> {
  const index = await Deno.readFile(join(repo.root, ".git", "index")).then(
    (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(""),
    () => "",
  );
  const head = await Deno.readTextFile(join(repo.root, ".git", "HEAD"));
  const status = await repo.git(
    "--no-optional-locks",
    "status",
    "--porcelain=v2",
    "-z",
    "--untracked-files=all",
  );
  return { index, head, status };
}

/**
 * Entries left in a directory (for "no temp dir left" checks).
 *
 * @param dir directory to list
 */
export async function entriesOf(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/**
 * True when a process with this pid exists (and is not a zombie). Asks `ps`: reading
 * /proc/<pid>/ takes --allow-all, which `deno task test` does not give (a refused read would make
 * every process look gone).
 *
 * @param pid process id
 */
export async function processAlive(pid: number): Promise<boolean> {
  const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const state = new TextDecoder().decode(out.stdout).trim();
  return out.code === 0 && state !== "" && !state.startsWith("Z") && !state.startsWith("X");
}

/** Write a scenario JSON file into the sandbox and return its path (for `scenario`). */
export async function writeScenario(
  sandbox: Sandbox,
  name: string,
  steps: unknown[],
): Promise<string> {
  const path = join(sandbox.dir, `${name}.json`);
  await Deno.writeTextFile(path, JSON.stringify({ steps }));
  return path;
}

/** The run folder printed on a `Run folder: …` line, if any. */
export function runFolderFromOutput(stdout: string): string | undefined {
  return stdout.match(/^Run folder: (.+)$/m)?.[1];
}
