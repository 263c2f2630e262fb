/**
 * The shapes of the bench's cases (lib-free): what a case factory gets, one measured command, and
 * the factory type. Shared by bench/cases.ts and the case files it lists, so neither imports the
 * other.
 *
 * @module
 */
import type { GeneratedRepo } from "./gen_repo.ts";
import type { Measurement, MeasureRequest } from "./measure.ts";
import type { ChildCount } from "./children.ts";
import type { SpeedTarget } from "./targets.ts";

/** What a case factory gets. */
export interface BenchContext {
  /** Absolute path of the project (where main.ts is). */
  projectRoot: string;
  /** The bench's temp dir (removed at the end); a case may create files under it. */
  tmp: string;
  /** argv prefix running review-gate as a user does: `deno run --allow-… <project>/main.ts`. */
  reviewGate: string[];
  /** Environment for review-gate runs: the zero-latency fake Claude, isolated git and XDG config. */
  env: Record<string, string>;
  /** Repository with an uncommitted change of ~2,000 `git diff` lines. */
  small: GeneratedRepo;
  /** Repository with an uncommitted change of ~100,000 `git diff` lines. */
  large: GeneratedRepo;
}

/** argv prefix running a Deno script with the permissions review-gate needs (read, write, env, run). */
export const DENO_RUN: readonly string[] = [
  Deno.execPath(),
  "run",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
];

/**
 * One measured command: the {@linkcode MeasureRequest} fields (argv, cwd, env, stdin such as hook
 * payloads or pre-push ref lines, runs, warm-up, accepted exit codes) without the scratch file.
 */
export interface BenchCase extends Omit<MeasureRequest, "timeFile"> {
  /** Rows with the same group share a baseline. */
  group: string;
  name: string;
  /** This row is the group's reference (ratio 1.0). One per group. */
  baseline?: boolean;
  /** Runs once before the warm-up. */
  setup?: () => Promise<void>;
  /** Runs after the measured runs; throw when they did not do what the row claims. */
  verify?: (m: Measurement) => Promise<void>;
  /**
   * After the measured runs, run the command once more under strace and print the child processes
   * it started in the notes (bench/children.ts).
   */
  countChildren?: boolean;
  /** Extra text for the notes under the table. */
  describe?: (m: Measurement) => string;
  /** The speed target the row is held to, against a floor row of its group (bench/targets.ts). */
  speedTarget?: SpeedTarget;
  /** Most peak RSS the row may have, MiB. */
  rssLimitMb?: number;
  /**
   * Compares the child processes of one run of the row (counted as for `countChildren`, which it
   * implies) with what its floor row runs: a text saying how they differ, or undefined when they
   * match. A floor that differs does not judge the row's target.
   */
  floorCheck?: (children: ChildCount | null) => string | undefined;
}

/** Builds cases once the repositories exist. */
export type CaseFactory = (ctx: BenchContext) => BenchCase[];
