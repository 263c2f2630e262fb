/**
 * `deno task mock-model`: try a real agent CLI as review-gate's reviewer without an account or a
 * network (README "Try a real agent CLI offline"). Starts one loopback model server on 127.0.0.1
 * (fixtures/mock_model/server.ts: the Anthropic Messages, OpenAI Responses, Chat Completions and
 * Gemini APIs) whose scripted reviewer (fixtures/mock_model/reviewer.ts) answers every review with
 * one finding on the first line the change adds, or approves with `--approve`; then prints, per
 * CLI, the `export` lines that point it at the server (docs/providers.md "Loopback mock models").
 * claude, qwen, gemini and copilot take their endpoint from the environment; codex and opencode
 * read it from a file only (`$CODEX_HOME/config.toml`, `$XDG_CONFIG_HOME/opencode/opencode.json`):
 * the script writes those into a temporary folder it names, and removes it when stopped (Ctrl-C).
 *
 * Usage: `deno task mock-model [--port N] [--approve]`. Exit codes: 0 when stopped by a signal,
 * 2 for a bad argument, 3 when the port cannot be listened on.
 *
 * @module
 */
import { join } from "node:path";
import { mockReviewer } from "../fixtures/mock_model/reviewer.ts";
import { describeAnswer } from "../fixtures/mock_model/reviewer.ts";
import {
  codexMockConfig,
  type MockCli,
  mockEndpointEnv,
  opencodeMockConfig,
} from "../fixtures/mock_model/cli_setup.ts";
import { type MockModelServer, startMockModel } from "../fixtures/mock_model/server.ts";

/** The command line, parsed. */
export interface MockModelArgs {
  /** 0: an ephemeral port. */
  port: number;
  approve: boolean;
  help: boolean;
}

const USAGE = `Usage: deno task mock-model [--port N] [--approve]

Starts a loopback mock model server (127.0.0.1) that speaks the APIs of claude, codex, qwen,
gemini, copilot and opencode, and prints the environment lines that point each CLI at it.
  --port N     listen on port N (default: a free port)
  --approve    approve every change (default: one high finding on the first line the change adds)
Stop it with Ctrl-C.
`;

/**
 * Parse the arguments.
 *
 * @param args the arguments after the task name
 * @throws {Error} naming an unknown argument or a port that is not 0..65535
 */
export function parseMockModelArgs(args: readonly string[]): MockModelArgs {
  const out: MockModelArgs = { port: 0, approve: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--approve") out.approve = true;
    else if (arg === "--help" || arg === "-h") out.help = true;
    else if (arg === "--port" || arg.startsWith("--port=")) {
      const value = arg === "--port" ? args[++i] : arg.slice("--port=".length);
      if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65535) {
        throw new Error(`--port takes a port number 0..65535, not ${JSON.stringify(value ?? "")}`);
      }
      out.port = Number(value);
    } else throw new Error(`unknown argument ${JSON.stringify(arg)} (see --help)`);
  }
  return out;
}

/** One CLI's settings: its provider name, what it is, and the variables to export. */
export interface CliSettings {
  provider: string;
  title: string;
  env: [string, string][];
}

/** The CLIs the script prints settings for, with what each is. */
const CLIS: readonly [MockCli, string][] = [
  ["claude", "Claude Code"],
  ["codex", "Codex CLI"],
  ["qwen", "Qwen Code"],
  ["gemini", "Gemini CLI"],
  ["copilot", "GitHub Copilot CLI"],
  ["opencode", "OpenCode"],
];

/**
 * The variables that point each CLI at the mock at `url` (fixtures/mock_model/cli_setup.ts), with
 * `CODEX_HOME` and `XDG_CONFIG_HOME` naming the files {@linkcode writeCliFiles} wrote in `dir`.
 *
 * @param url the server's base URL, e.g. `http://127.0.0.1:40123`
 * @param dir the script's temporary folder
 */
export function cliSettings(url: string, dir: string): CliSettings[] {
  return CLIS.map(([provider, title]) => {
    const env = Object.entries(mockEndpointEnv(provider, url));
    if (provider === "codex") env.unshift(["CODEX_HOME", join(dir, "codex-home")]);
    if (provider === "opencode") env.unshift(["XDG_CONFIG_HOME", join(dir, "config")]);
    return { provider, title, env };
  });
}

/**
 * Write the files of the CLIs that read their endpoint from a file only, in `dir`:
 * `codex-home/config.toml` and `config/opencode/opencode.json`.
 *
 * @param dir the script's temporary folder
 * @param url the server's base URL
 */
export async function writeCliFiles(dir: string, url: string): Promise<void> {
  await Deno.mkdir(join(dir, "codex-home"), { recursive: true });
  await Deno.writeTextFile(join(dir, "codex-home", "config.toml"), codexMockConfig(url));
  await Deno.mkdir(join(dir, "config", "opencode"), { recursive: true });
  await Deno.writeTextFile(
    join(dir, "config", "opencode", "opencode.json"),
    JSON.stringify(opencodeMockConfig(url), null, 2) + "\n",
  );
}

/** `value` quoted for a POSIX shell when it holds anything but safe characters. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** What the script prints once it listens: the server, then each CLI's lines. */
export function banner(url: string, approve: boolean, settings: CliSettings[]): string {
  const lines = [
    `review-gate mock model listening on ${url}`,
    approve
      ? "Scripted reviewer: approves every change (--approve)."
      : "Scripted reviewer: one high finding on the first line the change adds (--approve: none).",
    "Paste the lines of your CLI into the shell you run review-gate in, then run",
    "review-gate review --provider <name> in a repository with a change.",
    "",
  ];
  for (const cli of settings) {
    lines.push(`# ${cli.provider} (${cli.title})`);
    for (const [name, value] of cli.env) lines.push(`export ${name}=${shellQuote(value)}`);
    lines.push("");
  }
  lines.push(
    "codex and opencode read their endpoint from a file only: CODEX_HOME and XDG_CONFIG_HOME name",
    "files this script wrote in a temporary folder (in that shell, codex's own login and the user",
    "config under ~/.config of review-gate and other tools are not read).",
    "Stop with Ctrl-C: the temporary folder is removed.",
    "",
  );
  return lines.join("\n");
}

function write(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  stream.writeSync(new TextEncoder().encode(text));
}

/** Resolves on the first SIGINT (or SIGTERM, not on Windows). */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
    for (const signal of signals) Deno.addSignalListener(signal, () => resolve());
  });
}

/** Start the server on `port`, or say why not (exit code 3). */
function listen(args: MockModelArgs, dir: string): MockModelServer | number {
  const reviewer = mockReviewer({ approve: args.approve }, (api, answer) => {
    write(Deno.stderr, `[mock-model] ${api}: ${describeAnswer(answer)}\n`);
  });
  try {
    return startMockModel(reviewer, args.port);
  } catch (error) {
    write(Deno.stderr, `mock-model: cannot listen on 127.0.0.1:${args.port}: ${error}\n`);
    Deno.removeSync(dir, { recursive: true });
    return 3;
  }
}

/**
 * Run the script until a signal stops it.
 *
 * @param argv the arguments
 * @returns the exit code
 */
export async function main(argv: readonly string[]): Promise<number> {
  let args: MockModelArgs;
  try {
    args = parseMockModelArgs(argv);
  } catch (error) {
    write(Deno.stderr, `mock-model: ${(error as Error).message}\n`);
    return 2;
  }
  if (args.help) {
    write(Deno.stdout, USAGE);
    return 0;
  }
  const dir = await Deno.makeTempDir({ prefix: "review-gate-mock-model-" });
  const server = listen(args, dir);
  if (typeof server === "number") return server;
  const stopped = stopSignal();
  try {
    await writeCliFiles(dir, server.url);
    write(Deno.stdout, banner(server.url, args.approve, cliSettings(server.url, dir)));
    await stopped;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await server.close();
  }
  write(Deno.stderr, "mock-model: stopped\n");
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
