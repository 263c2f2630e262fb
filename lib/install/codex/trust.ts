/**
 * Will Codex run a hook? (for `doctor`): the trust state Codex keeps in the user's `config.toml`,
 * read without a TOML library (only the few keys involved), and the trust hash recomputed the way
 * codex-cli 0.171.0 does (`codex-rs/hooks/src/engine/discovery.rs` `command_hook_hash` with
 * `codex-rs/config/src/fingerprint.rs`; reproduced byte for byte against the binary's own
 * `currentHash`): `"sha256:" + hex(sha256(<compact JSON, keys sorted, of {"event_name": <snake
 * case event>, "hooks": [{"async": false, "command": …, "statusMessage"?: …, "timeout": <s, default
 * 600>, "type": "command"}]}>))`. Trust is keyed `<hooks file>:<event>:<group>:<handler>`:
 * `[hooks.state."<key>"]` with `trusted_hash` (and `enabled = false` to switch one off), or the
 * inline form `"<key>" = { trusted_hash = … }` under `[hooks.state]`. The reading is approximate
 * (a config.toml written in an unusual TOML style may be misread); Codex's `app-server`
 * `hooks/list` is the exact answer.
 *
 * @module
 */
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
}

const HEADER = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/;
const QUOTED = /"((?:[^"\\]|\\.)*)"/;

function unquote(text: string): string {
  try {
    return JSON.parse(`"${text}"`);
  } catch {
    return text;
  }
}

/**
 * Read the trust state from a `config.toml` text.
 *
 * @param text the file's text ("" when missing)
 */
export function readTrustState(text: string): CodexTrustState {
  const state: CodexTrustState = { hooks: new Map(), hooksOff: false, trustedProjects: new Set() };
  let table = "";
  const entry = (key: string) => {
    const found = state.hooks.get(key) ?? {};
    state.hooks.set(key, found);
    return found;
  };
  for (const line of text.split("\n")) {
    const header = HEADER.exec(line);
    if (header) {
      table = header[1];
      continue;
    }
    const stateKey = /^hooks\.state\.(".*")$/.exec(table)?.[1];
    const hash = /^\s*trusted_hash\s*=\s*"([^"]*)"/.exec(line)?.[1];
    const enabled = /^\s*enabled\s*=\s*(true|false)/.exec(line)?.[1];
    if (stateKey) {
      const key = unquote(QUOTED.exec(stateKey)![1]);
      if (hash) entry(key).trustedHash = hash;
      if (enabled) entry(key).enabled = enabled === "true";
    } else if (table === "hooks.state") {
      const inline = /^\s*"((?:[^"\\]|\\.)*)"\s*=\s*\{(.*)\}/.exec(line);
      if (inline) {
        const found = entry(unquote(inline[1]));
        found.trustedHash = /trusted_hash\s*=\s*"([^"]*)"/.exec(inline[2])?.[1] ??
          found.trustedHash;
        const on = /enabled\s*=\s*(true|false)/.exec(inline[2])?.[1];
        if (on) found.enabled = on === "true";
      }
    }
    if (
      (table === "features" && /^\s*hooks\s*=\s*false/.test(line)) ||
      /^\s*features\.hooks\s*=\s*false/.test(line) && table === ""
    ) {
      state.hooksOff = true;
    }
    const project = /^projects\.(".*")$/.exec(table)?.[1];
    if (project && /^\s*trust_level\s*=\s*"trusted"/.test(line)) {
      state.trustedProjects.add(unquote(QUOTED.exec(project)![1]));
    }
  }
  return state;
}
