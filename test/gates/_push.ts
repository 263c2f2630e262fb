/**
 * Helpers for the end-to-end tests of the installed pre-push hook's own answers
 * (`hooks/pre-push-fast.sh` inside the stub): a gate sandbox whose stub runs review-gate through a
 * wrapper that counts its starts, so each push proves whether the hook answered alone.
 *
 * @module
 */
import { join } from "node:path";
import { renderPrePushStub } from "../../lib/install/git/stub.ts";
import { MAIN } from "../e2e/_cli.ts";
import {
  APP,
  type CliResult,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  runGit,
  scenario,
} from "./_gates.ts";

/** What review-gate says of a verdict taken from its cache. */
export const CACHED = /\(cached verdict, no model call\)/;

/** A finding on the pushed line that blocks only under `fail_on: "low"`. */
export const LOW_ANSWER = {
  verdict: "needs-attention",
  summary: "A naming nit.",
  findings: [{
    severity: "low",
    category: "maintainability",
    scope: "introduced",
    title: "Constant name is vague",
    body: "t says nothing.",
    file: APP,
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "Rename it.",
  }],
  next_steps: ["Rename it."],
};

/** A sandbox with the counting stub installed. */
export interface PushSandbox {
  sb: GateSandbox;
  /** The repository's root. */
  root: string;
  /** How many times the stub started review-gate so far. */
  started(): Promise<number>;
  /** `git push -q origin <args>` with the low finding's scenario and `env` over the sandbox's. */
  push(args: string[], env?: Record<string, string>): Promise<CliResult>;
}

/** Make a gate sandbox and install the pre-push stub with a wrapper that counts review-gate's starts. */
export async function pushSandbox(): Promise<PushSandbox> {
  const sb = await makeGateSandbox();
  const root = sb.repo.root;
  const starts = join(sb.dir, "starts.log");
  const wrapper = join(sb.dir, "review-gate.sh");
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\necho started >>'${starts}'\nexec '${Deno.execPath()}' run --allow-read ` +
      `--allow-write --allow-env --allow-run '${MAIN}' "$@"\n`,
    { mode: 0o755 },
  );
  await Deno.writeTextFile(join(root, ".git", "hooks", "pre-push"), renderPrePushStub(wrapper), {
    mode: 0o755,
  });
  const low = join(sb.dir, "low.json");
  await Deno.writeTextFile(low, JSON.stringify({ steps: [{ kind: "valid", answer: LOW_ANSWER }] }));
  const started = async () =>
    (await Deno.readTextFile(starts).catch(() => "")).split("\n").filter(Boolean).length;
  const push = (args: string[], env: Record<string, string> = {}) =>
    runGit(sb, ["push", "-q", "origin", ...args], { env: { ...scenario(low), ...env } });
  return { sb, root, started, push };
}

/**
 * Put the remote's `feature` back at main's tip, running no hook: the next `push feature` sends the
 * same ref line (an update from a known old tip, whose range rests on no remote-tracking ref).
 */
export async function resetFeature(sb: GateSandbox): Promise<void> {
  await gitOk(sb, ["push", "-q", "--no-verify", "--force", "origin", "main:refs/heads/feature"]);
}
