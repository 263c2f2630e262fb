/**
 * `deno task compile`: `deno compile` of main.ts into `./review-gate` (README "Install"). Deno
 * downloads its runtime (denort) from its own download host to do so; when that fails (offline, a
 * closed network) this prints one line naming the host and the npm install instead of Deno's
 * error chain and stack trace, and exits 1. Any other failure prints Deno's error without the
 * backtrace.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** `deno compile`'s arguments: the permissions the hooks need, the files read at run time. */
export const COMPILE_ARGS = [
  "compile",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--include",
  "schemas",
  "--include",
  "prompts",
  "--include",
  "eval-suite",
  "-o",
  "review-gate",
  "main.ts",
] as const;

/**
 * The message for a failed `deno compile`, from its stderr.
 *
 * @param stderr what `deno compile` printed (ANSI colours allowed)
 * @returns one line when the runtime download failed, else Deno's error up to its backtrace
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const out = "Download https://dl.deno.land/release/v2.9.6/denort-x.zip\nerror: Writing deno compile executable\n\nCaused by:\n    0: Setting up base binary.\n    1: error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x.zip): dns error\n\nStack backtrace:\n   0: <unknown>\n";
 * assert.match(compileFailure(out), /^review-gate: deno compile could not download Deno's runtime \(https:\/\/dl\.deno\.land\/release\/v2\.9\.6\/denort-x\.zip\): dns error; install with npm instead/);
 * ```
 */
export function compileFailure(stderr: string): string {
  // deno-lint-ignore no-control-regex
  const text = stderr.replace(/\x1b\[[0-9;]*m/g, "");
  const request = /error sending request for url \((\S+)\): ([^\n]*)/.exec(text);
  if (request) {
    return `review-gate: deno compile could not download Deno's runtime (${request[1]}): ${
      request[2]
    }; install with npm instead (npm i -g review-gate, README "Install"), which needs no access to Deno's download host`;
  }
  return text.split(/\n\s*Stack backtrace:/)[0].trimEnd();
}

async function main(): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...COMPILE_ARGS],
    cwd: root,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.success) {
    Deno.stderr.writeSync(out.stderr);
    return 0;
  }
  Deno.stderr.writeSync(new TextEncoder().encode(`${compileFailure(stderr)}\n`));
  return out.code || 1;
}

if (import.meta.main) Deno.exit(await main());
