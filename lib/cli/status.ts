/**
 * `review-gate status [ID] [--wait] [--timeout S] [--json]`: one background job's state (default:
 * the newest review job; an agent turn's background worker only by its id, lib/jobs/worker_job.ts), refreshed first — a job whose process is gone is never shown running. `--wait`
 * polls until the job has ended (or `--timeout` seconds passed, or Ctrl-C, which stops the waiting,
 * not the job, and says so). Reads never see half a record (the job's writes are atomic renames)
 * and a dead job is settled under the jobs lock, so `status` racing the job's own last write
 * reports what the job wrote.
 *
 * Exit codes: 0 shown (and, with `--wait`, ended); 1 `--wait` gave up before the job ended;
 * 2 no such job; 130 interrupted. This file defines the command; its work,
 * lib/cli/status_action.ts, loads when it runs.
 *
 * @module
 */
import {
  type CliContext,
  type CommandRoutes,
  defineCommand,
  flag,
  jobIdArgument,
  text,
} from "./command.ts";
import type { StatusFlags } from "./status_action.ts";

/** `status`. */
export const statusRoutes: CommandRoutes = {
  status: defineCommand({
    docs: {
      brief: "Show a background job (default: the newest review job); --wait until it ends",
    },
    parameters: {
      flags: {
        wait: flag("wait until the job has ended"),
        timeout: text("seconds", "with --wait: give up after this many seconds (exit 1)"),
        json: flag("print the job record as JSON"),
      },
      positional: jobIdArgument(
        "job id, or a unique part of it (default: the newest review job; an agent turn's background worker, which gives no verdict, only by its id)",
      ),
    },
    async func(this: CliContext, flags: StatusFlags, id?: string) {
      this.setExit(await (await import("./status_action.ts")).show(id, flags, this.deps));
    },
  }),
};
