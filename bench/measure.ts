/**
 * Measure one command: run it N times under GNU time (`/usr/bin/time -f "%e %M" -o <file>`), take
 * the wall time of each run with `performance.now()` around the spawn (ms, sub-millisecond
 * resolution; GNU time's `%e` has only 10 ms), and the peak resident set size from `%M` (KiB).
 *
 * `%M` is the `ru_maxrss` that `wait4` reports for the measured child: the largest RSS of that
 * process or of any descendant it waited for, not the sum over the process tree.
 *
 * @module
 */

/** GNU time; `%M` is max RSS in KiB. */
export const GNU_TIME = "/usr/bin/time";

/** One command to measure. */
export interface MeasureRequest {
  /** argv; `cmd[0]` is looked up on PATH by GNU time. */
  cmd: string[];
  cwd: string;
  /** Extra environment variables, merged over the bench's own. */
  env?: Record<string, string>;
  /** Text written to the command's stdin (default: no stdin). */
  stdin?: string;
  /** Measured runs (the median is reported). */
  runs: number;
  /** Unmeasured runs first (default 1): warms the page cache and Deno's module cache. */
  warmup?: number;
  /** Exit codes that count as success (default `[0]`). */
  okCodes?: number[];
  /** Scratch file for GNU time's output. */
  timeFile: string;
}

/** The result of {@linkcode measure}. */
export interface Measurement {
  /** Median wall time, ms. */
  medianMs: number;
  /** Wall time of every measured run, ms. */
  samplesMs: number[];
  /** Largest max RSS over the measured runs, MiB. */
  maxRssMb: number;
  /** stdout of every measured run (text). */
  outputs: string[];
  /** stderr of every measured run (text): a row may require them empty (a quiet run). */
  errors: string[];
}

/**
 * Parse the line GNU time writes for `-f "%e %M"`.
 *
 * @param text contents of the `-o` file (the last non-empty line is used; GNU time prefixes
 *   "Command exited with non-zero status N" on its own line)
 * @returns elapsed seconds and max RSS in KiB
 * @throws {Error} when no line has the two numbers
 */
export function parseTimeOutput(text: string): { seconds: number; maxRssKb: number } {
  const line = text.trim().split("\n").at(-1) ?? "";
  const match = /^(\d+(?:\.\d+)?) (\d+)$/.exec(line.trim());
  if (!match) throw new Error(`Unexpected GNU time output "${text.trim()}": expected "%e %M"`);
  return { seconds: Number(match[1]), maxRssKb: Number(match[2]) };
}

/** Median of a non-empty list of numbers (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("Cannot take the median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Run a command `warmup + runs` times and measure the last `runs`.
 *
 * @throws {Error} when a run exits with a code outside `okCodes`, with the stderr tail
 */
export async function measure(request: MeasureRequest): Promise<Measurement> {
  return (await measureInterleaved([request]))[0];
}

/**
 * Measure several commands in turns — every command's warm-up runs first, then one measured run
 * of each in order, round after round — so a change of the machine's load while they run weighs on
 * all of them alike (a row and its floor: their ratio is what a target judges). A command with
 * fewer `runs` drops out of the later rounds.
 *
 * @returns one measurement per request, in order
 * @throws {Error} when a run exits with a code outside `okCodes`, with the stderr tail
 */
export async function measureInterleaved(
  requests: readonly MeasureRequest[],
): Promise<Measurement[]> {
  const results = requests.map(() => ({
    samplesMs: [] as number[],
    outputs: [] as string[],
    errors: [] as string[],
    rss: 0,
  }));
  for (const request of requests) {
    for (let i = 0; i < (request.warmup ?? 1); i++) await runOnce(request);
  }
  const rounds = Math.max(...requests.map((r) => r.runs));
  for (let round = 0; round < rounds; round++) {
    for (const [n, request] of requests.entries()) {
      if (round >= request.runs) continue;
      const { ms, rssKb, stdout, stderr } = await runOnce(request);
      results[n].samplesMs.push(ms);
      results[n].outputs.push(stdout);
      results[n].errors.push(stderr);
      results[n].rss = Math.max(results[n].rss, rssKb);
    }
  }
  return results.map((r) => ({
    medianMs: median(r.samplesMs),
    samplesMs: r.samplesMs,
    maxRssMb: r.rss / 1024,
    outputs: r.outputs,
    errors: r.errors,
  }));
}

async function runOnce(
  request: MeasureRequest,
): Promise<{ ms: number; rssKb: number; stdout: string; stderr: string }> {
  const command = new Deno.Command(GNU_TIME, {
    args: ["-f", "%e %M", "-o", request.timeFile, ...request.cmd],
    cwd: request.cwd,
    env: request.env,
    stdin: request.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const started = performance.now();
  const child = command.spawn();
  if (request.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(request.stdin));
    await writer.close();
  }
  const out = await child.output();
  const ms = performance.now() - started;
  if (!(request.okCodes ?? [0]).includes(out.code)) {
    const tail = new TextDecoder().decode(out.stderr).slice(-2000);
    throw new Error(`"${request.cmd.join(" ")}" exited ${out.code} in ${request.cwd}:\n${tail}`);
  }
  const { maxRssKb } = parseTimeOutput(await Deno.readTextFile(request.timeFile));
  const text = new TextDecoder();
  return { ms, rssKb: maxRssKb, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}
