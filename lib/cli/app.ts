/**
 * The command-line program: commander builds the commands, generated help and `--version`; `run()`
 * parses argv, runs one command and returns its exit code. Nothing here exits the process.
 *
 * @module
 */
import { Command, CommanderError } from "commander";
import denoJson from "../../deno.json" with { type: "json" };
import { ExitCode, ReviewGateError } from "../errors.ts";
import { SpawnError } from "../exec.ts";
import { registerDecode } from "./decode.ts";
import { registerDoctor } from "./doctor.ts";
import { registerGate } from "./gate.ts";
import { registerInstall } from "./install.ts";
import { registerHook } from "./hook.ts";
import type { CliDeps } from "./deps.ts";
import { registerReview } from "./review.ts";
import { registerSchema } from "./schema.ts";

/** The version printed by `--version`. */
export const VERSION: string = denoJson.version;

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
      writeErr: (text) => deps.stderr.write(text),
    });
  registerReview(program, deps, setExit);
  registerSchema(program, deps);
  registerDecode(program, deps, setExit);
  registerHook(program, deps, setExit);
  registerInstall(program, deps);
  registerGate(program, deps);
  registerDoctor(program, deps, setExit);
  for (const command of allCommands(program)) {
    command.exitOverride().showHelpAfterError("(add --help for usage)").configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
    });
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/**
 * Run review-gate with the given arguments (without the program name).
 *
 * @returns the exit code (see lib/errors.ts ExitCode); never throws
 */
export async function run(args: readonly string[], deps: CliDeps): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = buildProgram(deps, (code) => exitCode = code);
  if (args.length === 0) {
    deps.stderr.write(program.helpInformation());
    return ExitCode.usage;
  }
  try {
    await program.parseAsync([...args], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version print and end with 0; every parse error is a usage error (2)
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof ReviewGateError) {
      deps.stderr.write(`review-gate: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof SpawnError) {
      deps.stderr.write(`review-gate: ${error.message}\n`);
      return ExitCode.couldNotRun;
    }
    const detail = deps.env.REVIEW_GATE_DEBUG ? (error as Error).stack : (error as Error).message;
    deps.stderr.write(
      `review-gate: internal error: ${detail}\nPlease report it; set REVIEW_GATE_DEBUG=1 for the stack\n`,
    );
    return ExitCode.couldNotRun;
  }
}
