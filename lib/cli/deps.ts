/**
 * The I/O a command gets from `main.ts`: arguments, environment, streams, clock, subprocess
 * runner and the interrupt signal. Tests build their own.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";

/** Something text can be written to. */
export interface TextSink {
  write(text: string): void;
  /** True when it is a terminal (colour and progress allowed). */
  readonly isTerminal: boolean;
}

/** Everything a command may touch. */
export interface CliDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: TextSink;
  stderr: TextSink;
  /** Read all of stdin (once). */
  readStdin: () => Promise<Uint8Array>;
  runner: Runner;
  now: () => Date;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /**
   * Where this review-gate runs from, for installed hooks: `execPath` is `Deno.execPath()` (deno or
   * the compiled binary), `mainPath` the absolute `main.ts` when run by deno, `launcher` the npm
   * command that started it (lib/install/npm_launcher.ts), which hooks then name instead.
   */
  self: { execPath: string; mainPath?: string; launcher?: string };
  /**
   * The repository around `cwd` (lib/git/repo.ts `resolveRepo` with this `runner`), started by
   * main.ts before the CLI loads when the command is `review`, so its `git rev-parse` runs while
   * Deno loads the CLI; `review` uses it instead of resolving again. Rejects as `resolveRepo` would.
   */
  repoAhead?: Promise<Repo>;
}
