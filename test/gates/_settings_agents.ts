/**
 * Helpers for the end-to-end tests of the turn gates of agents that read hooks from a
 * `settings.json` and answer a stop with one JSON object on stdout — Gemini CLI
 * (test/gates/gemini_stop_test.ts) and Qwen Code (test/gates/qwen_stop_test.ts): a hook payload
 * with the fields both send, and the stop's answer read as those agents read it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type GateSandbox, runCli, stopDecision } from "./_gates.ts";

/**
 * A hook payload as both agents write it: `session_id`, `transcript_path`
 * (`$HOME/<transcriptDir>/<session>.jsonl`), `cwd` (the repository), `hook_event_name`,
 * `timestamp`, then `extra`.
 */
export function settingsHookPayload(
  sb: GateSandbox,
  at: { session: string; event: string; transcriptDir: string[] },
  extra: object,
): string {
  return JSON.stringify({
    session_id: at.session,
    transcript_path: join(sb.env.HOME, ...at.transcriptDir, `${at.session}.jsonl`),
    cwd: sb.repo.root,
    hook_event_name: at.event,
    timestamp: new Date().toISOString(),
    ...extra,
  });
}

/**
 * Run stop hook `hook` on `stdin`, assert exit 0, and read its answer with
 * {@linkcode settingsStopDecision}.
 */
export async function runSettingsStop(
  sb: GateSandbox,
  hook: string,
  stdin: string,
  options: { env: Record<string, string>; continueWould: string },
): Promise<Record<string, unknown> | null> {
  const s = await runCli(sb, ["hook", hook], { stdin, env: options.env });
  assert.equal(s.code, 0, s.stderr);
  return settingsStopDecision(s.stdout, options.continueWould);
}

/**
 * The answer as these agents read it: the whole trimmed stdout through `JSON.parse` (text that
 * does not parse becomes a note and the turn ends), a block only with `decision` "block" (or
 * "deny") and our blocks always carry a reason; otherwise a `systemMessage`. `continue` is never
 * set (`continueWould` says what `continue: false` would do, for the assertion's message).
 *
 * @returns `null` for an empty stdout (the turn ends), else the decision
 */
export function settingsStopDecision(
  stdout: string,
  continueWould: string,
): Record<string, unknown> | null {
  const decision = stopDecision(stdout);
  if (decision === null) return null;
  assert.deepEqual(JSON.parse(stdout.trim()), decision, "one JSON object, the whole stdout");
  assert.equal(decision.continue, undefined, `continue: false would ${continueWould}`);
  if (decision.decision !== undefined) {
    assert.equal(decision.decision, "block");
    assert.ok(typeof decision.reason === "string" && decision.reason !== "", "a block's reason");
  } else {
    assert.equal(typeof decision.systemMessage, "string", JSON.stringify(decision));
  }
  return decision;
}
