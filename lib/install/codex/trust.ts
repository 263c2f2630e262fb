/**
 * Will Codex run a hook? (for `doctor`): the trust state Codex keeps in the user's `config.toml`,
 * parsed with smol-toml (only the few keys involved are read), and the trust hash recomputed the way
 * codex-cli 0.171.0 does (`codex-rs/hooks/src/engine/discovery.rs` `command_hook_hash` with
 * `codex-rs/config/src/fingerprint.rs`; reproduced byte for byte against the binary's own
 * `currentHash`): `"sha256:" + hex(sha256(<compact JSON, keys sorted, of {"event_name": <snake
 * case event>, "hooks": [{"async": false, "command": …, "statusMessage"?: …, "timeout": <s, default
 * 600>, "type": "command"}]}>))`. Trust is keyed `<hooks file>:<event>:<group>:<handler>`:
 * `[hooks.state."<key>"]` with `trusted_hash` (and `enabled = false` to switch one off), or the
 * inline form `"<key>" = { trusted_hash = … }` under `[hooks.state]` (any TOML spelling: the file is
 * parsed with smol-toml). Codex's `app-server` `hooks/list` is the exact answer.
 *
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { sha256Hex } from "../../base/sha256.ts";

/** Codex's snake-case label of an event, as in trust keys and hashes. */
export function eventLabel(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

/**
 * The trust hash of one command hook.
 *
 * @param hook the event (`Stop`), the handler's command, `timeout` (seconds; Codex's default 600)
 *   and `statusMessage`
 * @returns `sha256:<hex>`
 */
export async function hookTrustHash(hook: {
  event: string;
  command: string;
  timeout?: number;
  statusMessage?: string;
}): Promise<string> {
  const handler: Record<string, unknown> = {
    type: "command",
    command: hook.command,
    timeout: hook.timeout ?? 600,
    async: false,
  };
  if (hook.statusMessage !== undefined) handler.statusMessage = hook.statusMessage;
  const identity = { event_name: eventLabel(hook.event), hooks: [handler] };
  return `sha256:${await sha256Hex(JSON.stringify(sortKeys(identity)))}`;
}

/** The trust key of a hook: `<hooks file>:<event>:<group index>:<handler index>`. */
export function hookTrustKey(file: string, event: string, group: number, handler: number): string {
  return `${file}:${eventLabel(event)}:${group}:${handler}`;
}

/** What the user's `config.toml` says about hooks. */
export interface CodexTrustState {
  /** key → trusted hash and whether it is switched off. */
  hooks: Map<string, { trustedHash?: string; enabled?: boolean }>;
  /** `features.hooks = false`: no hook runs at all. */
  hooksOff: boolean;
  /** Project roots with `trust_level = "trusted"`. */
  trustedProjects: Set<string>;
  /** Why `config.toml` could not be read as TOML (its parser's first line), when it could not. */
  unreadable?: string;
}

/** A TOML table (an object that is not an array), or `undefined`. */
function table(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/**
 * Read the trust state from a `config.toml` text (parsed with smol-toml, so every TOML spelling of
 * the same keys reads the same: dotted keys, inline tables, literal strings).
 *
 * @param text the file's text ("" when missing)
 * @returns the state; `unreadable` says why when the text is not valid TOML (then nothing is
 *   trusted and no hook is known to be switched off)
 */
export function readTrustState(text: string): CodexTrustState {
  const state: CodexTrustState = { hooks: new Map(), hooksOff: false, trustedProjects: new Set() };
  let config: Record<string, unknown>;
  try {
    config = parseToml(text);
  } catch (error) {
    state.unreadable = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return state;
  }
  const hooks = table(table(config.hooks)?.state) ?? {};
  for (const [key, value] of Object.entries(hooks)) {
    const entry = table(value);
    if (!entry) continue;
    const found: { trustedHash?: string; enabled?: boolean } = {};
    if (typeof entry.trusted_hash === "string") found.trustedHash = entry.trusted_hash;
    if (typeof entry.enabled === "boolean") found.enabled = entry.enabled;
    state.hooks.set(key, found);
  }
  state.hooksOff = table(config.features)?.hooks === false;
  for (const [root, value] of Object.entries(table(config.projects) ?? {})) {
    if (table(value)?.trust_level === "trusted") state.trustedProjects.add(root);
  }
  return state;
}
