/**
 * The command-line program: @stricli/core parses argv, routes to a command and generates help and
 * `--version`; `run()` runs one command and returns its exit code. Nothing here exits the process.
 * Each command's file (lib/cli/<name>.ts) defines its flags and help only, and loads its work
 * (`<name>_action.ts`) when it runs, so `--version`, `--help` and every command load little beyond
 * their own code. The definitions themselves load by name ({@linkcode COMMANDS}): argv naming one
 * command (`review …`, `hook pre-push`) builds the parser from that command's definition alone,
 * since its parsing, help and flag suggestions read nothing else; anything else (no command, an
 * unknown one, `help`, `--version`) loads them all, for the command list and "did you mean"
 * (docs/design.md "Performance notes": code loads where it is used). The parser is plain ES
 * modules: no Node compatibility is started to parse argv.
 *
 * @module
 */
import {
  type Application,
  type ApplicationText,
  buildApplication,
  buildRouteMap,
  ExitCode as ParserExit,
  formatMessageForArgumentScannerError,
  help,
  run as runParser,
  type StricliIntegration,
  type StricliProcess,
  text_en,
  version,
} from "@stricli/core";
import denoJson from "../../deno.json" with { type: "json" };
import { ExitCode, ReviewGateError } from "../base/errors.ts";
import { didYouMean } from "../base/closest.ts";
import { SpawnError } from "../exec/exec.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { takeStateNotes } from "../store/sealed.ts";
import { type CliContext, type CommandRoutes, defineCommand, flagName } from "./command.ts";
import type { CliDeps } from "./deps.ts";

/** The version printed by `--version`. */
export const VERSION: string = denoJson.version;

/**
 * Every command by name, in help order, each loading its definition (lib/cli/<name>.ts, which
 * routes that one name): adding a command is one new file plus one line here.
 */
const COMMANDS: Readonly<Record<string, () => Promise<CommandRoutes>>> = {
  review: async () => (await import("./review.ts")).reviewRoutes,
  ci: async () => (await import("./ci.ts")).ciRoutes,
  merge: async () => (await import("./merge.ts")).mergeRoutes,
  jobs: async () => (await import("./jobs.ts")).jobsRoutes,
  status: async () => (await import("./status.ts")).statusRoutes,
  result: async () => (await import("./result.ts")).resultRoutes,
  cancel: async () => (await import("./cancel.ts")).cancelRoutes,
  show: async () => (await import("./show.ts")).showRoutes,
  schema: async () => (await import("./schema.ts")).schemaRoutes,
  decode: async () => (await import("./decode.ts")).decodeRoutes,
  hook: async () => (await import("./hook.ts")).hookRoutes,
  init: async () => (await import("./init.ts")).initRoutes,
  install: async () => (await import("./install.ts")).installRoutes,
  gate: async () => (await import("./gate.ts")).gateRoutes,
  doctor: async () => (await import("./doctor.ts")).doctorRoutes,
  ack: async () => (await import("./ack.ts")).ackRoutes,
  acks: async () => (await import("./acks.ts")).acksRoutes,
  stats: async () => (await import("./stats.ts")).statsRoutes,
  prune: async () => (await import("./prune.ts")).pruneRoutes,
  eval: async () => (await import("./eval.ts")).evalRoutes,
  demo: async () => (await import("./demo.ts")).demoRoutes,
};

/** How help is laid out: flags in kebab-case, every flag in the usage lines. */
const FORMATTING = {
  caseStyle: "convert-camel-to-kebab",
  useAliasInUsageLine: false,
  onlyRequiredInUsageLine: false,
} as const;

/** True when argv asks for help itself (`-h`, `--help`, `--help-all`), before any `--`. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => /^(-h|--help|--help-?all)$/i.test(a));
}

/**
 * `--help`/`-h` on every command. A group of commands run without one of them (`review-gate`,
 * `review-gate hook`) is a usage error: its help goes to stderr and the exit code is 2.
 */
function helpIntegration(): StricliIntegration<CliContext> {
  const base = help<CliContext>({
    brief: "display help for command",
    formatting: FORMATTING,
    defaultForRouteMap: true,
  });
  const flag = base.flag!;
  return {
    ...base,
    flag: {
      ...flag,
      async run(app, result) {
        const context = this as unknown as CliContext & { process: StricliProcess };
        if (asksForHelp(context.args)) return await flag.run.call(this, app, result);
        const stderr = { write: (text: string) => context.deps.stderr.write(text) };
        await flag.run.call({ ...this, process: { ...this.process, stdout: stderr } }, app, result);
        context.process.exitCode = ExitCode.usage;
      },
    },
  };
}

/** The gates `gate enable|disable` takes (lib/cli/gate_action.ts). */
const GATE_CHOICES =
  "choose pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop or all";

/** The parser's messages: its own words, with flags spelled as they are typed (`--dry-run`). */
const TEXT: ApplicationText = {
  ...text_en,
  briefs: { ...text_en.briefs, help: "display help for command" },
  exceptionWhileParsingArguments(error, ansiColor) {
    return formatMessageForArgumentScannerError(error as never, {
      FlagNotFoundError: (e) =>
        e.aliasName || e.corrections.length === 0
          ? e.message
          : `No flag registered for --${e.input}, did you mean ${
            e.corrections.map(flagName).join(" or ")
          }?`,
      // our own suggestion: only a close one (the parser's reaches "gpt" → "vibe")
      EnumValidationError: (e) =>
        `--${e.externalFlagName}: Expected "${e.input}" to be one of (${e.values.join("|")})${
          didYouMean(e.input, e.values)
        }`,
      UnsatisfiedPositionalError: (e) =>
        e.placeholder === "gate" && !e.limit
          ? `Name the gate: ${GATE_CHOICES} (e.g. "review-gate gate disable pre-push"; never all by default)`
          : e.message,
    }) ?? text_en.exceptionWhileParsingArguments.call(this, error, ansiColor);
  },
};

/** The `help [command...]` command: the help of a command, as `review-gate <command> --help`. */
const helpRoutes: CommandRoutes = {
  help: defineCommand({
    docs: { brief: "display help for command" },
    parameters: {
      positional: {
        kind: "array",
        parameter: { placeholder: "command", brief: "the command (and subcommand)", parse: String },
      },
    },
    async func(this: CliContext, _flags: NonNullable<unknown>, ...path: string[]) {
      const args = [...path, "--help"];
      await runParser(await program(), args, { ...this, args } as CliContext & RunContext);
    },
  }),
};

const built = new Map<string, Application<CliContext>>();

/**
 * The program: every command, `help`, `--help` and `--version` — or, for argv whose first word
 * names a command, that command alone (module doc). Built once per shape.
 *
 * @param args argv without the program name; omit for every command
 */
export async function program(args: readonly string[] = []): Promise<Application<CliContext>> {
  const name = Object.hasOwn(COMMANDS, args[0] ?? "") ? args[0] : "";
  const cached = built.get(name);
  if (cached) return cached;
  const routes = name
    ? [await COMMANDS[name]()]
    : [...await Promise.all(Object.values(COMMANDS).map((load) => load())), helpRoutes];
  const app = buildApplication(
    buildRouteMap({
      routes: Object.assign({}, ...routes) as CommandRoutes,
      docs: { brief: "Trustworthy AI code review for git pushes and Claude Code turns" },
    }),
    {
      name: "review-gate",
      scanner: { caseStyle: "allow-kebab-for-camel", allowArgumentEscapeSequence: true },
      documentation: { disableAnsiColor: true },
      localization: { text: TEXT },
    },
    {
      help: helpIntegration(),
      version: version({
        brief: "output the version number",
        info: { currentVersion: VERSION },
        alias: "V",
      }),
    },
  );
  built.set(name, app);
  return app;
}

/** The context the parser runs a command with. */
type RunContext = { process: StricliProcess };

/** Commands whose `--json` output must stay valid JSON even when they fail before a run exists. */
const JSON_COMMANDS = new Set(["review", "ci", "decode", "show", "eval"]);

/**
 * True when argv asks `review`, `ci`, `decode`, `show` or `eval` for JSON on stdout (`--json`, or `--format json`
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
  let failure: { error: unknown } | undefined;
  const parserErrors: string[] = [];
  const context: CliContext & RunContext = {
    process: {
      // help and --version: a write that fails (a full disk) fails the run as any command's would
      stdout: {
        write: (text: string) => {
          try {
            deps.stdout.write(text);
          } catch (error) {
            failure ??= { error };
          }
        },
      },
      stderr: { write: (text: string) => void parserErrors.push(text) },
    },
    deps,
    args,
    setExit: (code) => exitCode = code,
    fail: (error) => failure ??= { error },
  };
  const fail = (code: number, message: string, text = `review-gate: ${message}\n`) => {
    deps.stderr.write(sanitizeForTerminal(text));
    if (wantsJsonErrors(args)) {
      deps.stdout.write(renderJsonError(code, sanitizeForTerminal(message)));
    }
    return code;
  };
  try {
    await runParser(await program(args), args, context);
  } catch (error) {
    failure ??= { error };
  }
  // state that did not verify was ignored (lib/store/sealed.ts): named, never silent
  for (const note of takeStateNotes()) deps.stderr.write(sanitizeForTerminal(`${note}\n`));
  if (failure) return failed(failure.error, deps, fail);
  const parserCode = Number(context.process.exitCode ?? 0);
  if (parserCode >= 0) return parserCode === 0 ? exitCode : parserCode;
  const lines = parserErrors.join("").split("\n").filter((line) => line.trim() !== "");
  if (parserCode === ParserExit.InvalidArgument || parserCode === ParserExit.UnknownCommand) {
    const text = lines.map((line) => `review-gate: ${line}\n`).join("");
    return fail(ExitCode.usage, lines.join("; "), `${text}(add --help for usage)\n`);
  }
  return failed(new Error(lines.join("\n") || `parser exit ${parserCode}`), deps, fail);
}

/** The exit code and message of a command that threw. */
function failed(
  error: unknown,
  deps: CliDeps,
  fail: (code: number, message: string, text?: string) => number,
): number {
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
