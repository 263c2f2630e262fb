/**
 * The world of test/contract/read_scope_test.ts (issue 20 §1: the reviewer reads only the change):
 * a user whose HOME, TMPDIR, another folder, codex config and Claude settings each hold a canary
 * (every canary starts with {@linkcode TAG}), a repository under HOME whose branch `feature`
 * changes `src/app.ts`, and the environment review-gate runs in. The codex provider carries its
 * token and a header literally (`experimental_bearer_token`, `http_headers`): the private
 * CODEX_HOME must not hold them. Claude's key lives only in the user settings: a council writes it
 * to a 0600 settings file under TMPDIR, which codex must not read.
 *
 * @module
 */
import { join } from "node:path";
import { findCli, git, makeRepo, type Sandbox } from "./env.ts";
import { DENO_DIR } from "./harness.ts";

/** What every canary starts with: no request body and no output may contain it. */
export const TAG = "I20LEAK";

/** The provider's literal bearer token (sent to the model provider as its credential only). */
export const BEARER = `${TAG}-BEARER-TOKEN`;
/** The provider's literal header value. */
export const HEADER = `${TAG}-PROVIDER-HEADER`;

/** The built world. */
export interface ReadWorld {
  home: string;
  /** review-gate's TMPDIR. */
  tmp: string;
  /** A folder outside HOME, the repository and TMPDIR. */
  other: string;
  repo: string;
  /** The files that hold canaries on purpose (left out of the output scan). */
  sources: string[];
  env: Record<string, string>;
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text, { mode: 0o600 });
}

/**
 * Build the world in `sb`.
 *
 * @param tmpUnderHome true: TMPDIR is `$HOME/tmp`; false: a folder beside HOME
 * @param urls the mock models (`openai`: without `/v1`; `anthropic`)
 */
export async function buildReadWorld(
  sb: Sandbox,
  tmpUnderHome: boolean,
  urls: { openai: string; anthropic: string },
): Promise<ReadWorld> {
  const home = sb.home;
  const tmp = tmpUnderHome ? join(home, "tmp") : join(sb.dir, "tmp");
  const other = join(sb.dir, "elsewhere");
  await Deno.mkdir(tmp, { recursive: true });
  const sources = [
    join(home, ".vault-token"),
    join(tmp, "stray.txt"),
    join(other, "notes.txt"),
    join(home, ".codex", "config.toml"),
    join(home, ".claude", "settings.json"),
  ];
  await write(sources[0], `${TAG}-HOME-VAULT\n`);
  await write(sources[1], `${TAG}-TMPDIR-STRAY\n`);
  await write(sources[2], `${TAG}-OTHER-FOLDER\n`);
  await write(
    sources[3],
    [
      `model_provider = "mock"`,
      `model = "gpt-mock"`,
      `[model_providers.mock]`,
      `name = "mock"`,
      `base_url = "${urls.openai}/v1"`,
      `wire_api = "responses"`,
      `experimental_bearer_token = "${BEARER}"`,
      `http_headers = { "X-Canary" = "${HEADER}" }`,
      `request_max_retries = 0`,
      `stream_max_retries = 0`,
      ``,
    ].join("\n"),
  );
  await write(
    sources[4],
    JSON.stringify({
      env: {
        ANTHROPIC_API_KEY: `sk-ant-${TAG}-COUNCIL-KEY`,
        ANTHROPIC_BASE_URL: urls.anthropic,
        CLAUDE_CODE_MAX_RETRIES: "0",
      },
    }),
  );
  const repo = await makeRepo(join(home, "src"));
  await git(repo, "checkout", "-q", "-b", "feature");
  await Deno.writeTextFile(join(repo, "src", "app.ts"), "export const a = 2;\n");
  await git(repo, "commit", "-q", "-am", "change a");
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    NO_PROXY: "127.0.0.1",
    DENO_DIR,
    NO_COLOR: "1",
    RUST_LOG: "error",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    REVIEW_GATE_CLAUDE_BIN: findCli("claude") ?? "claude",
    REVIEW_GATE_CODEX_BIN: findCli("codex") ?? "codex",
  };
  return { home, tmp, other, repo, sources, env };
}

/**
 * Every file under `root` (but the canary sources) whose bytes hold {@linkcode TAG}: outputs,
 * run records, transcripts, the state folder, what a CLI left in HOME.
 */
export async function filesWithTag(root: string, sources: string[]): Promise<string[]> {
  const found: string[] = [];
  const tag = new TextEncoder().encode(TAG);
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && !sources.includes(path)) {
        const bytes = await Deno.readFile(path);
        if (indexOf(bytes, tag) >= 0) found.push(path);
      }
    }
  };
  await walk(root);
  return found;
}

function indexOf(bytes: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Resolve once `cond()` holds (checked every 50 ms), or after `ms` with false. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
