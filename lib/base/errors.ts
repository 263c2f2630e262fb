/**
 * Error classes, each carrying the process exit code it maps to (docs/design.md "Statuses and exit
 * codes"). Only `main.ts` turns them into an exit; everything else throws.
 *
 * Messages follow Deno std's rules: sentence case, no final period, quoted values, say what failed
 * and what to do next.
 *
 * @module
 */

/** Exit codes of the `review` command and every other command (contract). */
export const ExitCode = {
  ok: 0,
  blocking: 1,
  usage: 2,
  couldNotRun: 3,
  interrupted: 130,
} as const;

/** Base class: an error that knows its exit code. */
export class ReviewGateError extends Error {
  /** Process exit code for this error. */
  readonly exitCode: number;
  constructor(message: string, exitCode: number, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad command line: unknown flag, bad value, wrong target combination (exit 2). */
export class UsageError extends ReviewGateError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.usage, options);
  }
}

/** Invalid configuration: names the file and key path (exit 2). */
export class ConfigError extends ReviewGateError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.usage, options);
  }
}

/**
 * A git command failed or the directory is not a repository (exit 2: the input is wrong), or git
 * cannot read the repository itself — a missing or corrupt object (`details.unreadable`: exit 3,
 * the review could not run).
 */
export class GitError extends ReviewGateError {
  /** The git arguments that failed, when a git command failed. */
  readonly args: readonly string[];
  /** Tail of git's stderr. */
  readonly stderr: string;
  constructor(
    message: string,
    details: { args?: readonly string[]; stderr?: string; unreadable?: boolean } = {},
    options?: ErrorOptions,
  ) {
    super(message, details.unreadable ? ExitCode.couldNotRun : ExitCode.usage, options);
    this.args = details.args ?? [];
    this.stderr = details.stderr ?? "";
  }
}

/** The user pressed Ctrl-C or the process got SIGTERM (exit 130). */
export class InterruptedError extends ReviewGateError {
  constructor(message = "Interrupted", options?: ErrorOptions) {
    super(message, ExitCode.interrupted, options);
  }
}

/**
 * The file system refused a write review-gate needs: a read-only `.git`, a full disk, a bad
 * `TMPDIR` (exit 3: the review could not run). The message names the path and the reason, e.g.
 * `Cannot write the run folder "/repo/.git/review-gate/runs/…": Permission denied (os error 13):
 * mkdir '…'; check permissions and free space`.
 */
export class StoreError extends ReviewGateError {
  /** The path that could not be written. */
  readonly path: string;
  /**
   * @param path the file or folder that could not be written
   * @param cause the file-system error (its message is the reason)
   * @param what what the path is, default "the run folder" (e.g. "a temp directory in")
   */
  constructor(path: string, cause: unknown, what = "the run folder") {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Cannot write ${what} "${path}": ${reason}; check permissions and free space`,
      ExitCode.couldNotRun,
      { cause },
    );
    this.path = path;
  }
}
