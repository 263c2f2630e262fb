/**
 * What every command definition (lib/cli/<name>.ts) shares with the parser, @stricli/core: the
 * context a command runs with ({@linkcode CliContext}: the I/O from `main.ts`, argv, the exit code
 * setter), {@linkcode defineCommand} (a stricli command whose failure is handed back to lib/cli/app.ts
 * instead of being printed by the parser), and how a flag's internal camelCase name is written on
 * the command line (`dryRun` → `--dry-run`).
 *
 * @module
 */
import {
  type BaseArgs,
  type BaseFlags,
  buildCommand,
  type Command,
  type CommandContext,
  type RouteMap,
  type TypedCommandParameters,
} from "@stricli/core";
import type { CliDeps } from "./deps.ts";

/** What a command function gets as `this`. */
export interface CliContext extends CommandContext {
  readonly deps: CliDeps;
  /** argv as given, without the program name (for options whose order matters: lib/cli/outputs.ts). */
  readonly args: readonly string[];
  /** Set the exit code the command ends with (0 unless set). */
  setExit(code: number): void;
  /** Hand the error a command failed with to lib/cli/app.ts, which prints it and picks the exit code. */
  fail(error: unknown): void;
}

/** A command file's routes: its command name(s) and what each runs (a command or a group of them). */
export type CommandRoutes = Readonly<Record<string, Command<CliContext> | RouteMap<CliContext>>>;

/** A command's flag definitions as the parser takes them, seen generically (by internal name). */
export type FlagDefinitions = Readonly<
  Record<
    string,
    { readonly kind: string; readonly default?: unknown; readonly withNegated?: boolean }
  >
>;

/** A command definition: its help and parameters, and the function it runs (loading its work). */
export interface CommandSpec<FLAGS extends BaseFlags, ARGS extends BaseArgs> {
  docs: { brief: string; fullDescription?: string };
  /** Checked against the types `func` takes (which alone decide `FLAGS` and `ARGS`). */
  parameters: NoInfer<TypedCommandParameters<FLAGS, ARGS, CliContext>>;
  func: (this: CliContext, flags: FLAGS, ...args: ARGS) => Promise<void>;
}

/**
 * A stricli command whose function's failure (any throw) goes to {@linkcode CliContext.fail}, so
 * lib/cli/app.ts prints it (sanitised, with the `--json` envelope) and maps it to an exit code.
 */
export function defineCommand<
  FLAGS extends BaseFlags = NonNullable<unknown>,
  ARGS extends BaseArgs = [],
>(spec: CommandSpec<FLAGS, ARGS>): Command<CliContext> {
  return buildCommand<FLAGS, ARGS, CliContext>(
    {
      docs: spec.docs,
      parameters: spec.parameters,
      async func(flags: FLAGS, ...args: ARGS) {
        try {
          await spec.func.call(this, flags, ...args);
        } catch (error) {
          this.fail(error);
        }
      },
    } as Parameters<typeof buildCommand<FLAGS, ARGS, CliContext>>[0],
  );
}

/**
 * A flag that takes a text value, e.g. `text("ref", "review merge-base(<ref>, HEAD) → HEAD")` for
 * `--base <ref>`.
 */
export const text = (placeholder: string, brief: string) =>
  ({ kind: "parsed", parse: String, optional: true, placeholder, brief }) as const;

/** A flag without a value (`--staged`): true when given. */
export const flag = (brief: string) =>
  ({ kind: "boolean", optional: true, withNegated: false, brief }) as const;

/** The optional `[id]` argument of the background-job commands (`status`, `result`, `cancel`). */
export const jobIdArgument = (brief: string) =>
  ({
    kind: "tuple",
    parameters: [{ placeholder: "id", brief, parse: String, optional: true }],
  }) as const;

/**
 * The command-line spelling of a flag's internal name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(flagName("noDefaultExcludes"), "--no-default-excludes");
 * ```
 */
export function flagName(internal: string): string {
  return "--" + internal.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/**
 * The internal (camelCase) name of a command-line flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(internalName("--fail-on-missing"), "failOnMissing");
 * ```
 */
export function internalName(flag: string): string {
  return flag.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
