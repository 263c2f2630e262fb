/**
 * `doctor`'s Qwen Code check: for each settings file holding our hooks (user, project), whether
 * Qwen Code will run them (lib/install/qwen/status.ts: `disableAllHooks`, folder trust for the
 * project's file, the program the hooks name) and whether the installed Stop timeout covers
 * `gates.qwen_stop.timeout_seconds`.
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import type { Repo } from "../git/repo.ts";
import { qwenHookStatuses, qwenTimeoutProblem } from "../install/qwen/status.ts";
import type { CliDeps } from "./deps.ts";
import type { DoctorCheck } from "./doctor_action.ts";

/**
 * The Qwen Code hook checks, one per settings file of ours (optional "not installed" when none).
 *
 * @param deps the CLI's environment
 * @param repo the repository (where qwen is taken to start)
 * @param config the loaded config, when it loaded
 */
export async function checkQwen(
  deps: Pick<CliDeps, "env">,
  repo: Pick<Repo, "root">,
  config: Config | undefined,
): Promise<DoctorCheck[]> {
  const statuses = await qwenHookStatuses({ root: repo.root, env: deps.env });
  if (statuses.length === 0) {
    return [{ area: "qwen hooks", ok: false, optional: true, detail: "not installed" }];
  }
  return statuses.map((status): DoctorCheck => {
    const timeout = config && qwenTimeoutProblem(status, config.gates.qwen_stop.timeout_seconds);
    return {
      area: `qwen hooks (${status.scope})`,
      ok: status.runs && !timeout,
      detail: timeout ?? status.detail,
    };
  });
}
