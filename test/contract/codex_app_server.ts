/**
 * Trusting hooks the way Codex itself does, for the contract tests: a client of `codex app-server`
 * (JSON-RPC 2.0, one JSON object per line on stdio) that makes the same calls as the Codex TUI's
 * "Trust all and continue" and its project-trust prompt — `config/batchWrite` of
 * `projects."<root>".trust_level = "trusted"`, `hooks/list` for the repository, then
 * `config/batchWrite` of `hooks.state."<key>".trusted_hash = <currentHash>` for every listed hook
 * (codex-cli 0.171.0; the TUI's writer is `codex-rs/tui/src/hooks_rpc.rs`). Codex computes the
 * hashes and writes the user's `config.toml` itself, so a test using this reaches exactly the state
 * a user reaches by trusting, never `--dangerously-bypass-hook-trust`.
 *
 * @module
 */

/** One hook as `hooks/list` reports it (the fields the tests read). */
export interface ListedHook {
  /** Trust key: `<hooks file>:<event>:<group index>:<handler index>`. */
  key: string;
  command: string | null;
  /** `user`, `project`, … */
  source: string;
  currentHash: string;
  /** `managed`, `untrusted`, `trusted` or `modified`. */
  trustStatus: string;
  timeoutSec: number;
}

interface RpcMessage {
  id?: number;
  result?: Record<string, unknown>;
  error?: unknown;
}

/** A running `codex app-server` with a line reader over its stdout. */
class AppServer {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";
  #next = 1;

  constructor(codex: string, env: Record<string, string>) {
    this.#child = new Deno.Command(codex, {
      args: ["app-server"],
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  #send(message: Record<string, unknown>): Promise<void> {
    return this.#writer.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"),
    );
  }

  /** Call `method`; resolves with its `result`, throws on an error answer. Notifications are skipped. */
  async call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#next++;
    await this.#send({ id, method, params });
    while (true) {
      const nl = this.#buffer.indexOf("\n");
      if (nl < 0) {
        const chunk = await this.#reader.read();
        if (chunk.done) throw new Error(`codex app-server closed before answering ${method}`);
        this.#buffer += chunk.value;
        continue;
      }
      const line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      const message = JSON.parse(line) as RpcMessage;
      if (message.id !== id) continue;
      if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
      return message.result ?? {};
    }
  }

  notify(method: string): Promise<void> {
    return this.#send({ method });
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    try {
      this.#child.kill("SIGTERM");
    } catch { /* already gone */ }
    await this.#reader.cancel().catch(() => {});
    await this.#child.status;
  }
}

/**
 * Trust the repository and every hook Codex lists for it, as the user does in the TUI.
 *
 * @param codex path of the codex binary
 * @param repo repository root (also the cwd Codex lists hooks for)
 * @param env the whole environment (`HOME`, `CODEX_HOME`, …)
 * @returns the hooks as listed **before** trusting (their `currentHash` is Codex's own), and their
 *   trust status after
 */
export async function trustLikeCodex(
  codex: string,
  repo: string,
  env: Record<string, string>,
): Promise<{ before: ListedHook[]; after: ListedHook[] }> {
  const server = new AppServer(codex, env);
  try {
    await server.call("initialize", { clientInfo: { name: "review-gate-contract", version: "0" } });
    await server.notify("initialized");
    const write = (keyPath: string, value: Record<string, unknown>) =>
      server.call("config/batchWrite", {
        edits: [{ keyPath, value, mergeStrategy: "upsert" }],
        reloadUserConfig: true,
      });
    const list = async () =>
      ((await server.call("hooks/list", { cwds: [repo] })).data as { hooks: ListedHook[] }[])
        .flatMap((entry) => entry.hooks);
    await write("projects", { [repo]: { trust_level: "trusted" } });
    const before = await list();
    await write(
      "hooks.state",
      Object.fromEntries(before.map((h) => [h.key, { trusted_hash: h.currentHash }])),
    );
    return { before, after: await list() };
  } finally {
    await server.close();
  }
}
