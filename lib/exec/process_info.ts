/**
 * What `ps` says about a process: whether it exists, is a zombie, and when it started — so a
 * recorded pid is only trusted while the process holding it is the one that was recorded (pid *and*
 * start time; a reused pid has a later start). POSIX `ps` only, no `/proc`: Linux (procps) and
 * macOS (BSD ps) both accept `-o stat= -o lstart= -p PID` and `-A -o pid= -o ppid=`; `lstart` is
 * printed as `Mon Nov 30 18:33:02 2026`, which `TZ=UTC LC_ALL=C` makes UTC and English. `lstart` has
 * whole seconds, so start times are compared as ISO strings with seconds.
 *
 * @module
 */
import type { Runner } from "./exec.ts";

/** One process as `ps` reports it. */
export interface ProcessInfo {
  pid: number;
  /** Start time, ISO 8601 UTC with whole seconds (`2026-11-30T18:33:02.000Z`). */
  startedAt: string;
  /** True for a process that has exited and not been reaped (it runs nothing any more). */
  zombie: boolean;
}

const PS_ENV = { TZ: "UTC", LC_ALL: "C", LANG: "C" };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Parse `ps -o lstart=` output in the C locale and UTC.
 *
 * @param text e.g. `Mon Nov  3 08:05:09 2026`
 * @returns the ISO time, or `null` when the text is not such a time
 */
export function parseLstart(text: string): string | null {
  const m = /^\w{3}\s+(\w{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})$/.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[1]) : -1;
  if (!m || month < 0) return null;
  const [day, hours, minutes, seconds, year] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  return new Date(Date.UTC(year, month, day, hours, minutes, seconds)).toISOString();
}

/**
 * Ask `ps` about one process.
 *
 * @param runner the subprocess seam
 * @param pid the process id
 * @returns what `ps` says, or `null` when there is no such process
 * @throws {Error} when `ps` cannot run or prints something unreadable (liveness unknown)
 */
export async function processInfo(runner: Runner, pid: number): Promise<ProcessInfo | null> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  const result = await runner({
    cmd: "ps",
    args: ["-o", "stat=", "-o", "lstart=", "-p", String(pid)],
    env: PS_ENV,
    timeoutMs: 10_000,
  });
  const text = new TextDecoder().decode(result.stdout).trim();
  if (text === "") {
    if (result.code === 0) throw new Error(`"ps -p ${pid}" printed nothing`);
    return null; // ps exits 1 when no process matches
  }
  const [stat, ...rest] = text.split(/\s+/);
  const startedAt = parseLstart(rest.join(" "));
  if (startedAt === null) throw new Error(`Cannot read the start time "ps" printed: "${text}"`);
  return { pid, startedAt, zombie: stat.startsWith("Z") };
}

/**
 * True while the process recorded as (`pid`, `startedAt`) still runs: `ps` knows the pid, it is not
 * a zombie, and it started at the recorded time.
 *
 * @param runner the subprocess seam
 * @param process the recorded pid and start time
 * @throws {Error} when `ps` cannot tell (see {@linkcode processInfo})
 */
export async function isRunning(
  runner: Runner,
  process: { pid: number; startedAt: string },
): Promise<boolean> {
  const info = await processInfo(runner, process.pid);
  return info !== null && !info.zombie && info.startedAt === process.startedAt;
}

/**
 * Every live descendant of a process (children, their children, …), from one `ps -A` listing;
 * zombies left out.
 *
 * @param runner the subprocess seam
 * @param pid the ancestor
 * @returns the descendants with their start times, nearest first; empty when it has none (or is
 *   gone)
 * @throws {Error} when `ps` cannot run
 */
export async function descendantsOf(runner: Runner, pid: number): Promise<ProcessInfo[]> {
  const result = await runner({
    cmd: "ps",
    args: ["-A", "-o", "pid=", "-o", "ppid=", "-o", "stat=", "-o", "lstart="],
    env: PS_ENV,
    timeoutMs: 10_000,
  });
  if (result.code !== 0) throw new Error(`"ps -A" exited ${result.code}`);
  const children = new Map<number, ProcessInfo[]>();
  for (const line of new TextDecoder().decode(result.stdout).split("\n")) {
    const [child, parent, stat, ...rest] = line.trim().split(/\s+/);
    const startedAt = parseLstart(rest.join(" "));
    if (startedAt === null || !/^\d+$/.test(child) || !/^\d+$/.test(parent)) continue;
    const info = { pid: Number(child), startedAt, zombie: stat.startsWith("Z") };
    children.set(Number(parent), [...children.get(Number(parent)) ?? [], info]);
  }
  const found: ProcessInfo[] = [];
  const queue = [...children.get(pid) ?? []];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (found.some((p) => p.pid === next.pid)) continue;
    found.push(next);
    queue.push(...children.get(next.pid) ?? []);
  }
  return found.filter((p) => !p.zombie);
}
