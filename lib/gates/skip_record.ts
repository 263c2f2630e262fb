/**
 * The skip records review-gate writes itself (README "Skips"; the store is lib/store/skips.ts):
 * a gate disabled in the config that applied, and a `REVIEW_GATE` skip value that reached
 * review-gate because no installed script answered it first (a compiled binary's Stop hook,
 * `REVIEW_GATE=off` through review-gate's line in `.husky/pre-push`). The installed scripts record
 * the common case without starting review-gate (`hooks/skip-record.sh`). Only the gates' skips are
 * recorded: the prompt, work and guard hooks review nothing.
 *
 * @module
 */
import { agentMarker } from "../base/agent_env.ts";
import { appendSkip, MAX_SKIP_REFS, type SkipRecord } from "../store/skips.ts";

/** The hooks whose skip lets a change through unreviewed. */
const GATES: ReadonlySet<string> = new Set([
  "pre-push",
  "claude-stop",
  "codex-stop",
  "copilot-stop",
  "qwen-stop",
  "gemini-stop",
]);

/** True for a hook whose skip is recorded. */
export function isGateHook(name: string): boolean {
  return GATES.has(name);
}

/** What a skip record is made of: the hook's environment, directory and input. */
export interface SkipSource {
  env: Record<string, string | undefined>;
  /** The hook's cwd (a push's worktree root). */
  cwd: string;
  now: Date;
}

/**
 * A push's skip record (pure): its ref lines, remote, directory and who pushed.
 *
 * @param source environment, cwd, clock
 * @param push git's ref lines (stdin) and the remote it named (`$1`)
 * @param why `env` with `REVIEW_GATE`'s value, or `disabled` with where
 */
export function pushSkip(
  source: SkipSource,
  push: { lines: string; remote: string; repo?: string },
  why: Pick<SkipRecord, "reason" | "value" | "where">,
): SkipRecord {
  const refs = push.lines.split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => l.trim());
  const agent = agentMarker(source.env);
  return {
    at: source.now.toISOString(),
    gate: "pre-push",
    ...why,
    dir: source.cwd,
    ...(source.env.GIT_DIR ? { gitDir: source.env.GIT_DIR } : {}),
    ...(push.repo ? { repo: push.repo } : {}),
    user: whoIn(source.env),
    ...(agent ? { agent } : {}),
    remote: withoutUserInfo(push.remote),
    refs: refs.slice(0, MAX_SKIP_REFS),
    ...(refs.length > MAX_SKIP_REFS ? { moreRefs: refs.length - MAX_SKIP_REFS } : {}),
  };
}

/**
 * A Stop's skip record (pure): its session and the agent's cwd as the payload names them.
 *
 * @param source environment, cwd (used when the payload has none), clock
 * @param stop the gate, the payload's text, and the repository when known
 * @param why `env` with `REVIEW_GATE`'s value, or `disabled` with where
 */
export function stopSkip(
  source: SkipSource,
  stop: { gate: string; stdinText: string; repo?: string },
  why: Pick<SkipRecord, "reason" | "value" | "where">,
): SkipRecord {
  const payload = payloadFields(stop.stdinText);
  return {
    at: source.now.toISOString(),
    gate: stop.gate,
    ...why,
    dir: payload.cwd ?? source.cwd,
    ...(stop.repo ? { repo: stop.repo } : {}),
    ...(payload.session ? { session: payload.session } : {}),
    changed: null,
    user: whoIn(source.env),
  };
}

/**
 * Record a gate hook that `REVIEW_GATE` switched off (called before the hook's modules load).
 *
 * @param name the hook's name
 * @param args the hook's arguments (pre-push: remote, url)
 * @param deps environment, cwd, clock, stdin (read here), stderr for a record that failed
 */
export async function recordSwitchedOff(
  name: string,
  args: readonly string[],
  deps: SkipSource & {
    readStdin: () => Promise<Uint8Array>;
    stderr: { write(text: string): void };
  },
): Promise<void> {
  await recordHookSkip(name, args, deps, { reason: "env", value: deps.env.REVIEW_GATE ?? "" });
}

/**
 * Record a gate hook that `REVIEW_GATE_CHILD=1` switched off, and say so on stderr. The variable
 * marks the reviewers review-gate starts (lib/exec/exec.ts `CHILD_MARKER`), whose provider runs no
 * hook of ours anyway (docs/providers.md); anything else can set it by hand — an agent's shell
 * among them — so the skip is never silent: `"reason": "child"` in `skips.jsonl` (README "Skips").
 *
 * @param name the hook's name
 * @param args the hook's arguments (pre-push: remote, url)
 * @param deps environment, cwd, clock, stdin (read here), stderr
 */
export async function recordChildSkip(
  name: string,
  args: readonly string[],
  deps: SkipSource & {
    readStdin: () => Promise<Uint8Array>;
    stderr: { write(text: string): void };
  },
): Promise<void> {
  deps.stderr.write(
    `review-gate: REVIEW_GATE_CHILD=1 is set: this ${name} hook reviewed nothing (the variable is meant only for the reviewers review-gate starts); the skip is recorded (review-gate stats)\n`,
  );
  await recordHookSkip(name, args, deps, { reason: "child", value: deps.env.REVIEW_GATE_CHILD });
}

/** Build and append a gate hook's skip record; a failure is said on stderr. */
async function recordHookSkip(
  name: string,
  args: readonly string[],
  deps: SkipSource & {
    readStdin: () => Promise<Uint8Array>;
    stderr: { write(text: string): void };
  },
  why: Pick<SkipRecord, "reason" | "value">,
): Promise<void> {
  const stdinText = new TextDecoder().decode(await deps.readStdin().catch(() => new Uint8Array()));
  let record: SkipRecord;
  if (name === "pre-push") {
    if (deletesOnly(stdinText)) return; // a deletion is never reviewed: nothing was skipped
    record = pushSkip(deps, { lines: stdinText, remote: args[0] ?? "" }, why);
  } else {
    record = stopSkip(deps, { gate: name, stdinText }, why);
  }
  const failed = await appendSkip(deps.env, record);
  if (failed) deps.stderr.write(`${failed}\n`);
  // a child skip said its own line (recordChildSkip): REVIEW_GATE need not be off
  if (name === "pre-push" && why.reason !== "child") {
    deps.stderr.write(`${pushSkippedLine(!failed)}\n`);
  }
}

/**
 * The one stderr line of a push `REVIEW_GATE` let through, the same words as the installed
 * scripts' (hooks/pre-push-lines.sh `review_gate_skip_push`): never silence on a skipped push.
 *
 * @param recorded whether the skip record was written
 */
export function pushSkippedLine(recorded: boolean): string {
  return `review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip ${
    recorded ? "is recorded (review-gate stats)" : "could not be recorded"
  }`;
}

/**
 * Record a skip, and say on stderr when it could not be written.
 *
 * @returns the stderr line (with its newline) when the record failed, else ""
 */
export async function recordSkip(
  env: Record<string, string | undefined>,
  record: SkipRecord,
): Promise<string> {
  const failed = await appendSkip(env, record);
  return failed ? `${failed}\n` : "";
}

/** `$USER`, else `$LOGNAME`, else "". */
function whoIn(env: Record<string, string | undefined>): string {
  return env.USER || env.LOGNAME || "";
}

/** A remote as git named it, with a URL's user and password removed. */
export function withoutUserInfo(remote: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/]*@)(.*)$/.exec(remote);
  return match ? `${match[1]}${match[3]}` : remote;
}

/** True when every non-blank ref line deletes (an all-zero local id), and there is one. */
function deletesOnly(lines: string): boolean {
  const refs = lines.split("\n").map((l) => l.trim()).filter((l) => l);
  return refs.length > 0 && refs.every((l) => /^\S+ 0+ \S+ [0-9a-f]+$/.test(l));
}

/** The payload's `session_id` and `cwd`, when it is JSON that has them as strings. */
function payloadFields(text: string): { session?: string; cwd?: string } {
  try {
    const value = JSON.parse(text);
    if (!value || typeof value !== "object") return {};
    return {
      ...(typeof value.session_id === "string" ? { session: value.session_id } : {}),
      ...(typeof value.cwd === "string" && value.cwd.startsWith("/") ? { cwd: value.cwd } : {}),
    };
  } catch {
    return {};
  }
}
