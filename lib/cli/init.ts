/**
 * `review-gate init [--provider NAME] [--force]`: write a commented `.review-gate.json` (JSONC,
 * with `$schema`) at the repository's root. It asks nothing — every choice is a flag — so it runs
 * the same on a terminal, in a script or from an agent; it refuses to replace an existing file
 * without `--force`. This file defines the command; its work, lib/cli/init_action.ts, loads when it
 * runs.
 *
 * @module
 */
import { PROVIDER_SETTINGS } from "../providers/registry.ts";
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";
import type { InitFlags } from "./init_action.ts";

const BRIEF = "Write a commented .review-gate.json (with $schema) at the repository's root";

const INIT_HELP = `
The file is JSON with comments: "$schema" for your editor, the provider, and the keys a team
changes first as comments holding their defaults (remove the "//" to change one). init asks
nothing; an existing .review-gate.json is left alone (exit 2) unless --force. The file is part of
your repository: commit it to share it with your team.`;

/** `init`. */
export const initRoutes: CommandRoutes = {
  init: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + INIT_HELP },
    parameters: {
      flags: {
        provider: {
          kind: "enum",
          values: PROVIDER_SETTINGS,
          optional: true,
          placeholder: "name",
          brief: "the provider the config names (default auto: the first installed and signed in)",
        },
        force: flag("replace an existing .review-gate.json"),
      },
    },
    async func(this: CliContext, flags: InitFlags) {
      this.setExit(await (await import("./init_action.ts")).init(flags, this.deps));
    },
  }),
};
