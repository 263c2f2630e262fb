/**
 * The command-line program: commander builds the commands, generated help and `--version`; `run()`
 * parses argv, runs one command and returns its exit code. Nothing here exits the process. Each
 * command's file defines its flags and help only, and loads its work (`<name>_action.ts`) when it
 * runs, so `--version`, `--help` and every command load little beyond their own code.
 *
 * @module
 */
import { Command, CommanderError } from "commander";
import denoJson from "../../deno.json" with { type: "json" };
import { ExitCode, ReviewGateError } from "../base/errors.ts";
import { SpawnError } from "../exec/exec.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { registerAck } from "./ack.ts";
import { registerCi } from "./ci.ts";
import { registerAcks } from "./acks.ts";
import { registerDecode } from "./decode.ts";
import { registerDoctor } from "./doctor.ts";
import { registerGate } from "./gate.ts";
import { registerInstall } from "./install.ts";
import { registerHook } from "./hook.ts";
import type { CliDeps } from "./deps.ts";
import { registerReview } from "./review.ts";
import { registerSchema } from "./schema.ts";
import { registerJobs } from "./jobs.ts";
import { registerStatus } from "./status.ts";
import { registerResult } from "./result.ts";
import { registerCancel } from "./cancel.ts";
import { registerStats } from "./stats.ts";

/** The version printed by `--version`. */
export const VERSION: string = denoJson.version;

/** Registers one command (one file per command in this folder) on the program. */
export type RegisterCommand = (
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
) => void;

/** Every command, in help order: adding a command is one new file plus one line here. */
const COMMANDS: readonly RegisterCommand[] = [
  registerReview,
  registerCi,
  registerJobs,
  registerStatus,
  registerResult,
  registerCancel,
  registerSchema,
  registerDecode,
  registerHook,
  registerInstall,
  registerGate,
  registerDoctor,
  registerAck,
  registerAcks,
  registerStats,
];

/** Build the program with every command registered. */
export function buildProgram(deps: CliDeps, setExit: (code: number) => void): Command {
  const program = new Command("review-gate")
    .description("Trustworthy AI code review for git pushes and Claude Code turns")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(sanitizeForTerminal(text)),
    });
  for (const register of COMMANDS) register(program, deps, setExit);
  for (const command of allCommands(program)) {
    command.exitOverride().showHelpAfterError("(add --help for usage)").configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(sanitizeForTerminal(text)),
    });
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** Commands whose `--json` output must stay valid JSON even when they fail before a run exists. */
const JSON_COMMANDS = new Set(["review", "ci", "decode"]);

/**
 * True when argv asks `review`, `ci` or `decode` for JSON on stdout (`--json`, or `--format json`
 * with no `--output` after it, before any `--`).
 *
 * @param args argv without the program name
 */
export function wantsJsonErrors(args: readonly string[]): boolean {
  if (!JSON_COMMANDS.has(args[0])) return false;
  const end = args.indexOf("--");
  const flags = end === -1 ? args : args.slice(0, end);
  if (flags.includes("--json")) return true;
  return flags.some((arg, i) =>
    ((arg === "--format" && flags[i + 1] === "json") || arg === "--format=json") &&
    !(flags[i + (arg === "--format" ? 2 : 1)] ?? "").startsWith("--output")
  );
}

/**
 * The `--json` envelope of a command that failed before producing its own output.
 *
 * @returns one JSON line `{"status":"error","exitCode":…,"message":…}` with a final newline
 */
export function renderJsonError(exitCode: number, message: string): string {
  return JSON.stringify({ status: "error", exitCode, message }) + "\n";
}

/**
 * Run review-gate with the given arguments (without the program name). Error messages are
 * sanitised for the terminal (a provider message or a config key may carry escape sequences);
 * with `review --json` / `decode --json` a failure also prints {@linkcode renderJsonError} on
 * stdout so stdout is always JSON.
 *
 * @returns the exit code (see lib/base/errors.ts ExitCode); never throws
 */
export async function run(args: readonly string[], deps: CliDeps): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = buildProgram(deps, (code) => exitCode = code);
  if (args.length === 0) {
    deps.stderr.write(program.helpInformation());
    return ExitCode.usage;
  }
  const fail = (code: number, message: string, text = `review-gate: ${message}\n`) => {
    deps.stderr.write(sanitizeForTerminal(text));
    if (wantsJsonErrors(args)) {
      deps.stdout.write(renderJsonError(code, sanitizeForTerminal(message)));
    }
    return code;
  };
  try {
    await program.parseAsync([...args], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version print and end with 0; every parse error is a usage error (2), and
      // commander has already written its message to stderr
      if (error.exitCode === 0) return ExitCode.ok;
      return fail(ExitCode.usage, error.message.replace(/^error: /, ""), "");
    }
    if (error instanceof ReviewGateError) return fail(error.exitCode, error.message);
    if (error instanceof SpawnError) return fail(ExitCode.couldNotRun, error.message);
    const message = (error as Error)?.message ?? String(error);
    const detail = deps.env.REVIEW_GATE_DEBUG ? (error as Error).stack : message;
    return fail(
      ExitCode.couldNotRun,
      `internal error: ${message}`,
      `review-gate: internal error: ${detail}\nPlease report it; set REVIEW_GATE_DEBUG=1 for the stack\n`,
    );
  }
}
