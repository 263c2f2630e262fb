/**
 * Starting review-gate itself as a detached background process (a background job): its own
 * session and process group (`setsid`: Deno's `detached` on POSIX), no controlling terminal, stdin
 * from `/dev/null`, stdout and stderr appended to a log file — through `/bin/sh -c 'exec …'`, since
 * Deno's spawn cannot redirect to a file, with every word passed as an argument (no string is
 * parsed by the shell). `exec` keeps the pid: the process returned leads its session and group, so
 * `kill -- -<pid>` reaches everything in it. The caller does not wait for it.
 *
 * Also the argv that runs this very review-gate ({@linkcode selfArgv}).
 *
 * @module
 */
import { basename } from "../base/path.ts";
import { SpawnError } from "./exec.ts";

/** Permissions a `deno run` of review-gate needs (the compiled binary bakes them in). */
export const RUN_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
] as const;

/**
 * The argv that starts this review-gate: the npm command that started this run
 * (lib/install/npm_launcher.ts), the compiled binary, or `deno run --allow-… <main.ts>`.
 *
 * @param self `execPath` (`Deno.execPath()`), `mainPath` (main.ts, when run by deno) and
 *   `launcher` (the npm command, when it started this run)
 * @throws {Error} when run by deno without a `mainPath`
 */
export function selfArgv(
  self: { execPath: string; mainPath?: string; launcher?: string },
): string[] {
  if (self.launcher) return [self.launcher];
  const name = basename(self.execPath).toLowerCase();
  if (name !== "deno" && name !== "deno.exe") return [self.execPath];
  if (!self.mainPath) throw new Error("Cannot find review-gate's main.ts to start it again");
  return [self.execPath, "run", ...RUN_PERMISSIONS, self.mainPath];
}

/** What to start. */
export interface DetachedRequest {
  /** argv, the program first. */
  argv: readonly string[];
  cwd: string;
  /** The whole environment of the new process. */
  env: Record<string, string>;
  /** File its stdout and stderr are appended to (created `0600`). */
  log: string;
}

/**
 * Start a detached process and let it run on its own.
 *
 * @returns its pid (= its process group and session id)
 * @throws {SpawnError} when `/bin/sh` cannot be started or the log file cannot be created
 */
export async function spawnDetached(request: DetachedRequest): Promise<number> {
  try {
    await Deno.writeFile(request.log, new Uint8Array(), { append: true, mode: 0o600 });
  } catch (cause) {
    throw new SpawnError(request.argv[0], { cause });
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("/bin/sh", {
      args: [
        "-c",
        'log=$1; shift; exec "$@" >>"$log" 2>&1 </dev/null',
        "sh",
        request.log,
        ...request.argv,
      ],
      cwd: request.cwd,
      env: request.env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
  } catch (cause) {
    throw new SpawnError(request.argv[0], { cause });
  }
  child.unref();
  // the status would be awaited by nobody: keep the promise from rejecting unobserved
  child.status.catch(() => {});
  return child.pid;
}
