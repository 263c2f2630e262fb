/**
 * Environment for running the real `claude`, `codex`, `qwen`, `gemini`, `copilot` and `opencode` binaries against
 * the loopback mocks:
 * locating the pinned installs, throwaway HOME / CODEX_HOME, the env each CLI needs, and a clean
 * skip when the CLIs are not installed.
 *
 * Importing this module installs the pinned CLIs once (scripts/install_provider_clis.sh, ~30 s, then
 * cached outside the repo) when they are missing, so `deno task test:contract` runs them from a clean
 * clone; `REVIEW_GATE_CONTRACT_INSTALL=0` turns that off (the CLI cases are then skipped with a
 * message).
 * What points each CLI at a mock is shared with `deno task mock-model`
 * (fixtures/mock_model/cli_setup.ts). Facts: docs/providers.md "Loopback mock models".
 *
 * @module
 */
import { join } from "node:path";
import {
  CODEX_KEY_VAR,
  codexMockConfig,
  mockEndpointEnv,
  OPENCODE_KEY_VAR,
  opencodeMockConfig,
} from "../../fixtures/mock_model/cli_setup.ts";
import { PINNED } from "./versions.ts";

export { CODEX_KEY_VAR, OPENCODE_KEY_VAR };

/** Cache root the install script uses. */
export function cliCacheRoot(): string {
  return Deno.env.get("REVIEW_GATE_CLI_CACHE") ??
    join(Deno.env.get("HOME") ?? "/root", ".cache", "review-gate-clis");
}

/**
 * Absolute path of the pinned CLI's bin, or undefined when not installed.
 * Env `REVIEW_GATE_CONTRACT_CLAUDE_BIN` / `_CODEX_BIN` override the lookup.
 */
export function findCli(name: keyof typeof PINNED): string | undefined {
  const override = Deno.env.get(`REVIEW_GATE_CONTRACT_${name.toUpperCase()}_BIN`);
  if (override) return override;
  const p = PINNED[name];
  const path = join(
    cliCacheRoot(),
    `${p.pkg.replace("/", "+")}@${p.version}`,
    "node_modules",
    ".bin",
    p.bin,
  );
  try {
    Deno.statSync(path);
    return path;
  } catch {
    return undefined;
  }
}

/** Message printed when a CLI is missing: says how to install it. */
export function missingMessage(name: keyof typeof PINNED): string {
  return `contract: ${name} ${PINNED[name].version} is not installed under "${cliCacheRoot()}": ` +
    `run scripts/install_provider_clis.sh (skipping ${name} contract tests)`;
}

/** Write one line to stderr (tests may not use `console`: lint no-console). */
export function warn(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}

/**
 * Install the pinned CLIs when one is missing, unless `REVIEW_GATE_CONTRACT_INSTALL=0`. The script's
 * log goes to stderr; a failed install is reported and the cases are skipped, never crashed.
 */
export async function ensureInstalled(): Promise<void> {
  if ((Object.keys(PINNED) as (keyof typeof PINNED)[]).every((name) => findCli(name))) return;
  if (Deno.env.get("REVIEW_GATE_CONTRACT_INSTALL") === "0") return;
  const script = new URL("../../scripts/install_provider_clis.sh", import.meta.url).pathname;
  warn(`contract: installing the pinned provider CLIs with ${script}`);
  const started = performance.now();
  const out = await new Deno.Command("bash", {
    args: [script],
    stdout: "null",
    stderr: "inherit",
  }).output().catch((error) => ({ success: false, error }));
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  warn(
    out.success
      ? `contract: provider CLIs installed in ${seconds} s`
      : `contract: installing the provider CLIs failed after ${seconds} s (cases will be skipped)`,
  );
}

await ensureInstalled();

const warned = new Set<string>();
/**
 * True when the CLI is present; otherwise warns once on stderr (tests are then ignored) — or, with
 * `REVIEW_GATE_CONTRACT_REQUIRE=1` (set by `.ci/run`), throws so a missing CLI fails the suite.
 */
export function haveCli(name: keyof typeof PINNED): boolean {
  if (findCli(name)) return true;
  if (Deno.env.get("REVIEW_GATE_CONTRACT_REQUIRE") === "1") throw new Error(missingMessage(name));
  if (!warned.has(name)) {
    warned.add(name);
    warn(missingMessage(name));
  }
  return false;
}

/** A throwaway home directory tree for one test; `cleanup()` removes it. */
export interface Sandbox {
  /** Root of the throwaway dir. */
  dir: string;
  home: string;
  codexHome: string;
  cleanup(): Promise<void>;
}

/**
 * Make a throwaway HOME and CODEX_HOME. Placed under `$HOME/.cache/review-gate-contract` rather
 * than /tmp, because codex refuses to create helper binaries under /tmp (docs/providers.md
 * "Loopback mock models").
 */
export async function makeSandbox(): Promise<Sandbox> {
  const base = join(cliCacheRoot(), "..", "review-gate-contract");
  await Deno.mkdir(base, { recursive: true });
  const dir = await Deno.makeTempDir({ dir: base, prefix: "t-" });
  const home = join(dir, "home");
  const codexHome = join(dir, "codex-home");
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(codexHome, { recursive: true });
  return {
    dir,
    home,
    codexHome,
    cleanup: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
  };
}

/** Variables that must not leak from the developer's environment into the CLIs. */
const SCRUB = [
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_MODEL",
  "ANTHROPIC_SMALL_FAST_MODEL",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "CODEX_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GEMINI_CLI_HOME",
  "XDG_CONFIG_HOME",
];

/** Empty-string overrides for {@linkcode SCRUB} (ExecRequest.env merges over the parent). */
export function scrubbedEnv(): Record<string, string> {
  return Object.fromEntries(SCRUB.filter((k) => Deno.env.get(k) !== undefined).map((k) => [k, ""]));
}

/** Env for `claude` pointed at the Anthropic mock at `baseUrl`. */
export function claudeEnv(sandbox: Sandbox, baseUrl: string): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: sandbox.home,
    ...mockEndpointEnv("claude", baseUrl),
    CLAUDE_CODE_MAX_RETRIES: "0",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    NO_PROXY: "127.0.0.1",
  };
}

/**
 * Env for `qwen` pointed at the Chat Completions mock at `baseUrl` (…/v1 is added): the
 * OpenAI-compatible auth Qwen Code infers from `OPENAI_API_KEY`, `OPENAI_BASE_URL` and
 * `OPENAI_MODEL` (docs/providers.md "Loopback mock models"); the adapter's private QWEN_HOME holds
 * the rest.
 */
export function qwenEnv(sandbox: Sandbox, baseUrl: string): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: sandbox.home,
    ...mockEndpointEnv("qwen", baseUrl),
    NO_PROXY: "127.0.0.1",
  };
}

/**
 * Env for `gemini` pointed at the Gemini API mock at `baseUrl`: `GOOGLE_GEMINI_BASE_URL` and a
 * dummy `GEMINI_API_KEY` (docs/providers.md "Loopback mock models"); the adapter's private home
 * selects API-key auth and holds the rest.
 */
export function geminiEnv(sandbox: Sandbox, baseUrl: string): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: sandbox.home,
    ...mockEndpointEnv("gemini", baseUrl),
    NO_PROXY: "127.0.0.1",
  };
}

/**
 * Where the pinned copilot unpacks its ~235 MB runtime on first run (the install script's
 * `COPILOT_PKG_CACHE_HOME`): in the CLI cache, never a throwaway HOME.
 */
export function copilotPkgCache(): string {
  return Deno.env.get("COPILOT_PKG_CACHE_HOME") ?? join(cliCacheRoot(), "copilot-pkg");
}

/**
 * Env for `copilot` pointed at the Chat Completions mock at `baseUrl` (…/v1 is added): BYOK
 * offline mode (`COPILOT_OFFLINE`, `COPILOT_PROVIDER_BASE_URL`, `COPILOT_MODEL`; no GitHub auth,
 * docs/providers.md "Loopback mock models"), the package cache of the pinned install. The
 * adapter's private COPILOT_HOME holds the rest.
 */
export function copilotEnv(sandbox: Sandbox, baseUrl: string): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: sandbox.home,
    ...mockEndpointEnv("copilot", baseUrl),
    COPILOT_PKG_CACHE_HOME: copilotPkgCache(),
    NO_PROXY: "127.0.0.1",
  };
}

/**
 * Write the user's OpenCode config in the sandbox HOME (`~/.config/opencode/opencode.json`): an
 * OpenAI-compatible provider `mock` at `baseUrl` (…/v1 is added) and its model, the key from
 * {@linkcode OPENCODE_KEY_VAR} (docs/providers.md "Loopback mock models"). The adapter carries its
 * `provider` and `model` keys into the review config.
 *
 * @param extra more top-level keys (what a review must not carry: agents, MCP servers…)
 */
export async function writeOpencodeConfig(
  sandbox: Sandbox,
  baseUrl: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const dir = join(sandbox.home, ".config", "opencode");
  await Deno.mkdir(dir, { recursive: true });
  const config = opencodeMockConfig(baseUrl, extra);
  const path = join(dir, "opencode.json");
  await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
  return path;
}

/** Env for `opencode` (its config must be written with {@linkcode writeOpencodeConfig}). */
export function opencodeEnv(sandbox: Sandbox): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: sandbox.home,
    ...mockEndpointEnv("opencode", ""),
    NO_PROXY: "127.0.0.1",
  };
}

/**
 * Write `CODEX_HOME/config.toml` selecting the mock model provider at `baseUrl` (…/v1), so the
 * adapter's argv need not carry `-c model_provider=…` overrides.
 * @param extra more TOML appended verbatim (e.g. `sandbox_mode = "danger-full-access"`), top-level
 * @param streamRetries `stream_max_retries` of the mock provider (default 0: a dropped stream fails)
 */
export async function writeCodexConfig(
  sandbox: Sandbox,
  baseUrl: string,
  extra = "",
  streamRetries = 0,
): Promise<void> {
  const toml = codexMockConfig(baseUrl, { extra, streamRetries });
  await Deno.writeTextFile(join(sandbox.codexHome, "config.toml"), toml);
}

/** Env for `codex` (its config.toml must be written with {@linkcode writeCodexConfig}). */
export function codexEnv(sandbox: Sandbox): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: sandbox.home,
    CODEX_HOME: sandbox.codexHome,
    ...mockEndpointEnv("codex", ""),
    NO_PROXY: "127.0.0.1",
    RUST_LOG: "error",
  };
}

/**
 * Create a throwaway git repo with one commit (README.md, src/app.ts) and return its real path.
 * @param dir parent dir
 */
export async function makeRepo(dir: string): Promise<string> {
  const root = join(dir, "repo");
  await Deno.mkdir(join(root, "src"), { recursive: true });
  await Deno.writeTextFile(join(root, "README.md"), "# demo\n");
  await Deno.writeTextFile(join(root, "src", "app.ts"), "export const a = 1;\n");
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  return await Deno.realPath(root);
}

/** Run git in `root` with a fixed identity; throws on failure. Returns stdout. */
export async function git(root: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd: root,
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}
