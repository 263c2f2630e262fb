/**
 * `review-gate demo`: the README's demo (fixtures/demo.ts) through this very review-gate — a
 * throwaway repository with the bundled sample change, reviewed with the bundled fake Claude Code
 * CLI. Exit 0 when the review blocked on the sample's bug, as it must. This file defines the
 * command; the demo loads when it runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand } from "./command.ts";

/** `demo`. */
export const demoRoutes: CommandRoutes = {
  demo: defineCommand({
    docs: {
      brief: "Review a bundled sample change with the bundled fake provider (no network, no login)",
    },
    parameters: {},
    async func(this: CliContext) {
      const { selfArgv } = await import("../exec/detached.ts");
      // the demo is a fixture, not part of lib/ (lib/layout_test.ts): loaded by its path
      const demo = new URL("../../fixtures/demo.ts", import.meta.url).href;
      const { runDemo } = await import(demo) as {
        runDemo: (reviewGate: readonly string[]) => Promise<number>;
      };
      this.setExit(await runDemo(selfArgv(this.deps.self)));
    },
  }),
};
