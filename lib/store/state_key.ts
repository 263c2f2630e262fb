/**
 * The per-user key that authenticates review-gate's own state (README "Security model"): 32 random
 * bytes as 64 lowercase hex characters and a newline, in `stateKeyPath(env)`
 * (lib/store/user_state.ts) — outside every repository, so nothing a reviewed change carries can
 * name or replace it. The file is mode `0600` in a `0700` folder and made on first need. Two hooks
 * that start at once agree on one key: each writes a complete temp file and hard-links it into
 * place, which fails when the key exists (then it is read back), so no reader ever sees a
 * half-written key. A key file that is not a regular file, has other content, or that another
 * user may read or write is never trusted: the state it would authenticate is absent and the
 * caller names why.
 *
 * The installed hook scripts read the same file with `read -r` (hooks/pre-push-fast.sh,
 * hooks/turn-stop.sh), which is why the format is one plain line.
 *
 * @module
 */
import { stateKeyPath } from "./user_state.ts";

/** What loading the key gave. */
export type StateKeyResult =
  | { ok: true; path: string; /** 64 lowercase hex characters */ secret: string }
  | { ok: false; path?: string; /** why it is not trusted, one phrase */ problem: string };

const KEY_TEXT = /^([0-9a-f]{64})\n?$/;
const KEY_BYTES = 32;

/**
 * Read the user's key, creating it when it is missing and `create` is set.
 *
 * @param env the environment (`XDG_STATE_HOME`, `HOME`; default the process's)
 * @param options `create`: make the key when there is none (writers); readers leave it absent
 * @returns the key, or why there is none to trust (missing, unreadable, garbled, shared); never
 *   throws
 */
export async function loadStateKey(
  env: Record<string, string | undefined> = Deno.env.toObject(),
  options: { create?: boolean } = {},
): Promise<StateKeyResult> {
  const path = stateKeyPath(env);
  if (!path) {
    return {
      ok: false,
      problem: "no state folder is known (neither XDG_STATE_HOME nor HOME is set)",
    };
  }
  const first = await readKey(path);
  if (first.ok || !options.create || first.problem !== MISSING) return first;
  try {
    await createKey(path);
  } catch (error) {
    return { ok: false, path, problem: `it could not be created: ${describe(error)}` };
  }
  return await readKey(path);
}

const MISSING = "it does not exist";

async function readKey(path: string): Promise<StateKeyResult> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { ok: false, path, problem: MISSING };
    return { ok: false, path, problem: `it is unreadable: ${describe(error)}` };
  }
  if (!info.isFile) return { ok: false, path, problem: "it is not a regular file" };
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    return { ok: false, path, problem: "other users may read or write it (mode is not 0600)" };
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    return { ok: false, path, problem: `it is unreadable: ${describe(error)}` };
  }
  const match = KEY_TEXT.exec(text);
  if (!match) return { ok: false, path, problem: "it is garbled (not 64 hex characters)" };
  return { ok: true, path, secret: match[1] };
}

async function createKey(path: string): Promise<void> {
  // the folder of the key (stateKeyPath ends "/key"); no node:path on the hooks' fast path
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, `${hex}\n`, { mode: 0o600, createNew: true });
  try {
    await Deno.link(temp, path); // atomic, and refuses an existing key: the first one wins
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
