/**
 * A loopback mock of the OpenAI Chat Completions API for the contract tests: what the real `qwen`
 * binary calls with `--auth-type openai --openai-base-url <mock>/v1` (docs/providers.md "Loopback
 * mock models"). Each test scripts the model's turns; every request body is recorded so tests can
 * assert what the CLI sent (`tools`, the prompt, the corrective prompt).
 *
 * Reply shape: SSE `data:` chunks (`chat.completion.chunk`, no `event:` names: the OpenAI SDK
 * ignores named events) — the text or tool calls as `choices[0].delta`, a last chunk with
 * `finish_reason` and `usage`, then `data: [DONE]`; a non-streaming request gets one
 * `chat.completion` object.
 *
 * @module
 */

import { mockLog, readJsonBody, serveLoopback } from "./_mock_server.ts";

/** One tool call of a scripted turn; `name` must be a tool the CLI sent in `tools`. */
export interface ChatCall {
  name: string;
  args: Record<string, unknown>;
}

/** One scripted model turn (one `POST /v1/chat/completions`). */
export type ChatTurn =
  | { kind: "message"; text: string }
  | { kind: "calls"; calls: ChatCall[]; text?: string }
  | { kind: "error"; status: number; message?: string }
  /** A reply that never comes (the CLI hangs waiting: a timeout must kill it). */
  | { kind: "hang" };

/** One recorded request. */
export interface ChatRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  headers: Record<string, string>;
}

/** A running mock. */
export interface MockChat {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  requests: ChatRequest[];
  /** `POST …/chat/completions` requests only, OpenCode's title requests left out. */
  turns(): ChatRequest[];
  push(...turns: ChatTurn[]): void;
  pending(): number;
  close(): Promise<void>;
}

let counter = 0;

/** A structured_output tool call answering `answer` (Qwen Code's synthetic tool for the schema). */
export function structuredOutput(answer: unknown): ChatTurn {
  return { kind: "calls", calls: [{ name: "structured_output", args: answer as never }] };
}

/** True for OpenCode's session-title request (its system prompt is a title generator's). */
export function isTitleRequest(body: Record<string, unknown> | null): boolean {
  const messages = (body?.messages ?? []) as { role?: string; content?: unknown }[];
  const system = messages.find((m) => m.role === "system");
  return typeof system?.content === "string" &&
    system.content.startsWith("You are a title generator");
}

function sse(chunks: unknown[]): Response {
  const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(text, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/**
 * Start the mock on 127.0.0.1 with an ephemeral port.
 * @param turns initial script; when it runs out a turn gets the message `"(mock: no scripted turn)"`
 */
export function startMockChat(turns: ChatTurn[] = []): MockChat {
  const queue = [...turns];
  const requests: ChatRequest[] = [];
  const hung: (() => void)[] = [];
  const server = serveLoopback(async (req) => {
    const url = new URL(req.url);
    const body = await readJsonBody(req);
    requests.push({
      method: req.method,
      path: url.pathname,
      body,
      headers: Object.fromEntries(req.headers),
    });
    mockLog(`[mock_chat] ${req.method} ${url.pathname}`);
    if (url.pathname.endsWith("/models")) return Response.json({ object: "list", data: [] });
    if (!url.pathname.endsWith("/chat/completions") || req.method !== "POST") {
      return Response.json({ error: { message: "mock: not found" } }, { status: 404 });
    }
    // OpenCode names a session it was given no --title for with a request of its own: answered
    // here, never from the script (it races the turn's own request)
    const turn: ChatTurn = isTitleRequest(body)
      ? { kind: "message", text: "Review" }
      : queue.shift() ?? { kind: "message", text: "(mock: no scripted turn)" };
    if (turn.kind === "hang") {
      await new Promise<void>((resolve) => hung.push(resolve));
      return new Response("", { status: 503 });
    }
    if (turn.kind === "error") {
      return Response.json({
        error: { message: turn.message ?? `mock ${turn.status}`, type: "mock_error", code: null },
      }, { status: turn.status });
    }
    const id = `chatcmpl-mock-${++counter}`;
    const model = String(body?.model ?? "qwen-mock");
    const created = Math.floor(Date.now() / 1000);
    const calls = turn.kind === "calls" ? turn.calls : [];
    const text = turn.kind === "message" ? turn.text : turn.text ?? "";
    const toolCalls = calls.map((c, index) => ({
      index,
      id: `call_mock_${++counter}`,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    const finish = calls.length > 0 ? "tool_calls" : "stop";
    if (body?.stream !== true) {
      return Response.json({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{
          index: 0,
          message: {
            role: "assistant",
            content: text || null,
            ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _, ...c }) => c) } : {}),
          },
          finish_reason: finish,
        }],
        usage: USAGE,
      });
    }
    const chunk = (delta: unknown, finishReason: string | null = null, usage?: unknown) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...(usage ? { usage } : {}),
    });
    const chunks: unknown[] = [chunk({ role: "assistant", content: "" })];
    if (text) chunks.push(chunk({ content: text }));
    if (toolCalls.length) chunks.push(chunk({ tool_calls: toolCalls }));
    chunks.push(chunk({}, finish, USAGE));
    return sse(chunks);
  });
  return {
    url: server.url,
    requests,
    turns: () =>
      requests.filter((r) => r.path.endsWith("/chat/completions") && !isTitleRequest(r.body)),
    push: (...more) => queue.push(...more),
    pending: () => queue.length,
    close: async () => {
      for (const release of hung.splice(0)) release();
      await server.close();
    },
  };
}
