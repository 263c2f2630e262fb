/**
 * Child processes of one run of a command, counted with `strace -f -e trace=execve` in a run of its
 * own (never a measured one: tracing slows every exec). Each successful `execve` after the
 * command's own is one child program started — git calls, the provider, `sh`, `awk` — whichever
 * process started it. When `strace` is missing the count is `null` and the bench says so.
 *
 * @module
 */
import { join } from "node:path";
import { compareCodeUnits } from "../lib/base/compare.ts";

/** Programs started by one run: the total and per program name (`git` also per subcommand). */
export interface ChildCount {
  total: number;
  git: number;
  /** e.g. `{ "git rev-parse": 2, "sh": 1, "deno": 1 }`. */
  byName: Record<string, number>;
}

/**
 * Count the programs one run of `cmd` starts.
 *
 * @param cmd argv of the command
 * @param options its cwd, env and stdin; `tmp` a directory for the trace file
 * @returns the count, or `null` when strace is not installed or the run failed
 */
export async function countChildren(
  cmd: readonly string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: string; tmp: string },
): Promise<ChildCount | null> {
  const trace = join(options.tmp, "children.strace");
  let child;
  try {
    child = new Deno.Command("strace", {
      // -s: whole argv (strace abbreviates arrays past 32 entries; git's -c pairs are more)
      args: ["-f", "-qq", "-s", "512", "-e", "trace=execve", "-o", trace, ...cmd],
      cwd: options.cwd,
      env: options.env,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch {
    return null;
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? "")).catch(() => {});
  await writer.close().catch(() => {});
  await child.status;
  const text = await Deno.readTextFile(trace).catch(() => "");
  return parseExecs(text);
}

/** The end of a call that returned 0; strace pads a short resumed line with spaces before `=`. */
const SUCCEEDED = /\)\s*= 0\s*$/;

/**
 * The successful execve lines of a trace, in order, each whole: strace `-f` splits a call that
 * another process interrupts into `PID execve(… <unfinished ...>` and, later, `PID <... execve
 * resumed>) = 0`; the two halves are joined by pid.
 */
function successfulExecs(text: string): string[] {
  const pending = new Map<string, string>();
  const execs: string[] = [];
  for (const line of text.split("\n")) {
    const pid = /^(\d+)\s/.exec(line)?.[1] ?? "";
    if (/execve\(.*<unfinished \.\.\.>\s*$/.test(line)) {
      pending.set(pid, line.replace(/\s*<unfinished \.\.\.>\s*$/, ""));
    } else if (/<\.\.\. execve resumed>/.test(line)) {
      const start = pending.get(pid);
      pending.delete(pid);
      if (start !== undefined && SUCCEEDED.test(line)) execs.push(start);
    } else if (/execve\(/.test(line) && SUCCEEDED.test(line)) {
      execs.push(line);
    }
  }
  return execs;
}

/**
 * Parse strace's execve lines (pure): successful calls only, the first one (the command itself)
 * left out; git is counted per subcommand (the first word after its `-c`/`-C` options).
 *
 * @param text strace output with `-f` (each line may start with a pid; a call split into
 *   `<unfinished ...>` and `<... execve resumed>` halves counts once, when it succeeded)
 */
export function parseExecs(text: string): ChildCount | null {
  const execs = successfulExecs(text);
  if (execs.length === 0) return null;
  const byName: Record<string, number> = {};
  let git = 0;
  for (const line of execs.slice(1)) {
    const args = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    const program = (args[0] ?? "?").split("/").pop() ?? "?";
    let name = program;
    if (program === "git") {
      git++;
      const rest = args.slice(2);
      let i = 0;
      while (
        i < rest.length && (rest[i] === "-c" || rest[i] === "-C" || rest[i].startsWith("--"))
      ) {
        i += rest[i] === "-c" || rest[i] === "-C" ? 2 : 1;
      }
      name = `git ${rest[i] ?? ""}`.trim();
    }
    byName[name] = (byName[name] ?? 0) + 1;
  }
  return { total: execs.length - 1, git, byName };
}

/** One line for the bench notes: `3 children (2 git: rev-parse ×1, write-tree ×1; sh ×1)`. */
export function describeChildren(count: ChildCount | null): string {
  if (!count) return "children not counted (strace not found)";
  const parts = Object.entries(count.byName).sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([name, n]) => `${name} ×${n}`);
  return `${count.total} child processes, ${count.git} git calls (${parts.join(", ")})`;
}
