/**
 * A loopback mock of the OpenAI Responses API for the contract tests: what the real `codex` binary
 * calls through a `model_provider` pointing at it (docs/providers.md "Loopback mock models"). Each
 * test scripts the model's turns; every request body is recorded so
 * tests can assert what codex sent (`text.format`, the prompt, the corrective prompt, `tools`).
 *
 * Reply shape: SSE `response.created`, one `response.output_item.done` per output item, then
 * `response.completed` carrying `response.id` (without it the turn fails).
 *
 * @module
 */

import { mockLog, readJsonBody, serveLoopback, sseResponse } from "./_mock_server.ts";

/** One scripted model turn (one `POST /v1/responses`). */
export type CodexTurn =
  | { kind: "message"; text: string }
  /** A function call; `name` and `args` must match a tool codex sent in `tools`. */
  | { kind: "call"; name: string; args: Record<string, unknown> }
  | { kind: "error"; status: number; message?: string; code?: string }
  /** A stream that reports `response.failed` (the turn fails). */
  | { kind: "failed"; message: string }
  /**
   * A stream that ends after `response.created`, with no `response.completed`: codex calls it
   * "stream disconnected before completion" and, with `stream_max_retries` > 0, retries it.
   */
  | { kind: "drop" }
  /** Hold the reply until `until` settles, then answer with `then` (to order two CLIs' steps). */
  | { kind: "wait"; until: Promise<unknown>; then: CodexTurn }
  /** Several output items in one response, in order (e.g. a message, then a call). */
  | {
    kind: "multi";
    items: ({ kind: "message"; text: string } | {
      kind: "call";
      name: string;
      args: Record<string, unknown>;
    })[];
  };

/** One recorded request. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  headers: Record<string, string>;
}

/** A running mock. */
export interface MockOpenAI {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  requests: RecordedRequest[];
  /** `POST /v1/responses` requests only. */
  turns(): RecordedRequest[];
  push(...turns: CodexTurn[]): void;
  pending(): number;
  close(): Promise<void>;
}

let counter = 0;

function usage() {
  return {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
}

function item(
  turn: { kind: "message"; text: string } | {
    kind: "call";
    name: string;
    args: Record<string, unknown>;
  },
): Record<string, unknown> {
  const id = ++counter;
  if (turn.kind === "call") {
    return {
      type: "function_call",
      id: `fc_mock_${id}`,
      call_id: `call_mock_${id}`,
      name: turn.name,
      arguments: JSON.stringify(turn.args),
      status: "completed",
    };
  }
  return {
    type: "message",
    id: `msg_mock_${id}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: turn.text, annotations: [] }],
  };
}

/**
 * Start the mock on 127.0.0.1 with an ephemeral port.
 * @param turns initial script; when it runs out a turn gets the message `"(mock: no scripted turn)"`
 */
export function startMockOpenAI(turns: CodexTurn[] = []): MockOpenAI {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const server = serveLoopback(async (req) => {
    const url = new URL(req.url);
    const body = await readJsonBody(req);
    requests.push({
      method: req.method,
      path: url.pathname,
      body,
      headers: Object.fromEntries(req.headers),
    });
    mockLog(`[mock_openai] ${req.method} ${url.pathname}`);
    if (url.pathname.endsWith("/models")) {
      return Response.json({ object: "list", data: [], models: [] });
    }
    if (!url.pathname.endsWith("/responses") || req.method !== "POST") {
      return Response.json({ error: { message: "mock: not found" } }, { status: 404 });
    }
    let turn: CodexTurn = queue.shift() ?? { kind: "message", text: "(mock: no scripted turn)" };
    while (turn.kind === "wait") {
      await turn.until;
      turn = turn.then;
    }
    if (turn.kind === "error") {
      return Response.json({
        error: {
          message: turn.message ?? `mock ${turn.status}`,
          type: "invalid_request_error",
          code: turn.code ?? null,
          param: null,
        },
      }, { status: turn.status });
    }
    const id = `resp_mock_${++counter}`;
    const base = { id, object: "response", model: String(body?.model ?? "gpt-mock") };
    const events: Record<string, unknown>[] = [
      { type: "response.created", response: { ...base, status: "in_progress" } },
    ];
    if (turn.kind === "drop") {
      return sseResponse(events.map((e) => [String(e.type), e]));
    }
    if (turn.kind === "failed") {
      events.push({
        type: "response.failed",
        response: {
          ...base,
          status: "failed",
          error: { code: "server_error", message: turn.message },
        },
      });
    } else {
      const output = (turn.kind === "multi" ? turn.items : [turn]).map(item);
      output.forEach((out, index) =>
        events.push({ type: "response.output_item.done", output_index: index, item: out })
      );
      events.push({
        type: "response.completed",
        response: { ...base, status: "completed", output, usage: usage() },
      });
    }
    return sseResponse(events.map((e) => [String(e.type), e]));
  });
  return {
    url: server.url,
    requests,
    turns: () => requests.filter((r) => r.path.endsWith("/responses") && r.method === "POST"),
    push: (...more) => queue.push(...more),
    pending: () => queue.length,
    close: server.close,
  };
}
