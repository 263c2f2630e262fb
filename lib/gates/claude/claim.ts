/**
 * One review per Claude Code stop, however many of our Stop hooks run for it. The plugin's Stop
 * hook and one in settings (or two settings files) all run, in parallel, for the same stop — Claude
 * Code never merges them (README "Claude Code plugin"). Each claims the stop first: the event key
 * is (session, event, `prompt_id`, uuid of the transcript's last `assistant` entry — the same for
 * every hook of one stop, new at the next stop even with the same text), and the claim is a file
 * created with create-new semantics, `sessions/<session>.claims/<HMAC(key)>.json`, holding the
 * claimant's source (`plugin` or `settings`). The name is an HMAC with the user's key
 * (lib/store/sealed.ts `stateMac`): an agent that knows the event key (it can read its own
 * transcript) still cannot create the claim ahead of the hook and make its stop lose silently;
 * without a key to trust, nobody claims. The one that creates it runs the gate; the others
 * allow at once, and the first of them in a session says in a `systemMessage` that review-gate
 * runs twice. Without a readable transcript there is no key, nobody claims, and every hook runs the
 * gate (the session lock and verdict reuse keep that to one model call): never a silent skip.
 * Claims older than an hour are pruned by the next winner.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { stateMac } from "../../store/sealed.ts";
import { sessionFileName } from "../../store/sessions.ts";
import type { ClaudeHookPayload } from "./payload.ts";

/** Where a hook was installed from (`hook claude-stop --source plugin`; settings by default). */
export type HookSource = "plugin" | "settings";

/** Bytes read from the end of the transcript to find its last assistant entry. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;
/** Age after which a claim file is pruned, milliseconds. */
export const CLAIM_TTL_MS = 60 * 60 * 1000;

/** The outcome of a claim. */
export type StopClaim =
  | { won: true; keyless?: boolean }
  | { won: false; winner: HookSource | "unknown"; firstLoss: boolean };

/**
 * The uuid of the last `assistant` entry of a Claude Code transcript (JSONL), or `null` when it
 * cannot be read. The transcript format is Claude Code's own; only `type` and `uuid` are used.
 *
 * @param path `transcript_path` from the hook payload
 */
export async function lastAssistantUuid(path: string | undefined): Promise<string | null> {
  if (!path) return null;
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    const size = (await file.stat()).size;
    const start = Math.max(0, size - TRANSCRIPT_TAIL_BYTES);
    await file.seek(start, Deno.SeekMode.Start);
    const buffer = new Uint8Array(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = await file.read(buffer.subarray(read));
      if (n === null) break;
      read += n;
    }
    const lines = new TextDecoder().decode(buffer.subarray(0, read)).split("\n").reverse();
    for (const line of lines) {
      if (!line.includes('"assistant"')) continue;
      try {
        const entry = JSON.parse(line);
        if (entry?.type === "assistant" && typeof entry.uuid === "string") return entry.uuid;
      } catch {
        // a cut first line or a partial last line
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    file?.close();
  }
}

async function createNew(path: string, text: string): Promise<boolean> {
  try {
    await Deno.writeTextFile(path, text, { createNew: true, mode: 0o600 });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

async function pruneOld(dir: string, now: Date): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    const info = await Deno.stat(path).catch(() => null);
    if (info?.mtime && now.getTime() - info.mtime.getTime() > CLAIM_TTL_MS) {
      await Deno.remove(path).catch(() => {});
    }
  }
}

/**
 * Claim a stop for this hook.
 *
 * @param state the state dir
 * @param payload the Stop payload
 * @param options this hook's source and the clock
 * @returns won (run the gate; `keyless` when nothing could be claimed), or lost to a hook of the
 *   source named, `firstLoss` for the first loss of the session
 * @throws Deno.errors when the claims folder cannot be written (the caller's failure path allows)
 */
export async function claimStop(
  state: string,
  payload: ClaudeHookPayload,
  options: { source: HookSource; now: Date },
): Promise<StopClaim> {
  const uuid = await lastAssistantUuid(payload.transcript_path);
  if (uuid === null) return { won: true, keyless: true };
  const key = JSON.stringify([
    payload.session_id,
    payload.hook_event_name,
    payload.prompt_id ?? null,
    uuid,
  ]);
  const dir = join(
    state,
    "sessions",
    (await sessionFileName(payload.session_id)).replace(/\.json$/, ".claims"),
  );
  const name = await stateMac("stop claim", key);
  if (name === null) return { won: true, keyless: true };
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${name}.json`);
  const claim = JSON.stringify({ source: options.source, at: options.now.toISOString() });
  if (await createNew(path, claim)) {
    await pruneOld(dir, options.now).catch(() => {});
    return { won: true };
  }
  let winner: HookSource | "unknown" = "unknown";
  try {
    const source = JSON.parse(await Deno.readTextFile(path)).source;
    if (source === "plugin" || source === "settings") winner = source;
  } catch {
    // written this instant, or unreadable: the source stays unknown
  }
  const firstLoss = await createNew(join(dir, "twice-noted"), options.now.toISOString());
  return { won: false, winner, firstLoss };
}

/**
 * What a hook that lost the claim tells the user (once per session), or `null`.
 *
 * @param claim a lost claim
 * @param own this hook's source
 */
export function twiceMessage(
  claim: Extract<StopClaim, { won: false }>,
  own: HookSource,
): string | null {
  if (!claim.firstLoss) return null;
  const where = claim.winner === own || claim.winner === "unknown"
    ? `in more than one place (${own})`
    : "twice: as the Claude Code plugin and in settings";
  return `review-gate's Stop hook is installed ${where}; each stop is still reviewed once. ` +
    `Keep one: "review-gate uninstall --claude" removes the settings hooks, ` +
    `"claude plugin disable review-gate@<marketplace>" the plugin`;
}
