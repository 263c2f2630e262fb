/**
 * `review-gate doctor`: check the provider CLIs, config and hook installation. This file defines
 * the command; its work, lib/cli/doctor_action.ts, loads when it runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand } from "./command.ts";

/** `doctor`. */
export const doctorRoutes: CommandRoutes = {
  doctor: defineCommand({
    docs: { brief: "Check provider CLIs, config and hook installation" },
    parameters: {},
    async func(this: CliContext) {
      await (await import("./doctor_action.ts")).doctorAction(
        this.deps,
        (code) => this.setExit(code),
      );
    },
  }),
};
