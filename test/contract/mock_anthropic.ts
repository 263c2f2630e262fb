/**
 * A loopback mock of the Anthropic Messages API for the contract tests: what the real `claude`
 * binary calls when `ANTHROPIC_BASE_URL` points at it (docs/providers.md "Loopback mock models").
 * Each test scripts the model's turns; every request is recorded so tests can
 * assert what Claude Code sent (the `StructuredOutput` tool's `input_schema`, the prompt, the
 * corrective prompt).
 *
 * Routing: a request whose `tools` include `StructuredOutput` (or any tool) is a main-agent turn and
 * consumes the next scripted turn; anything else (title generation, quota probes, count_tokens) is
 * answered trivially and never consumes the script.
 *
 * @module
 */

import { mockLog, readJsonBody, serveLoopback, sseResponse } from "./_mock_server.ts";

/** One scripted model turn. */
export type ClaudeTurn =
  | { kind: "text"; text: string }
  | { kind: "tool"; name: string; input: Record<string, unknown> }
  | { kind: "error"; status: number; type?: string; message?: string }
  /** Hold the reply until `until` settles, then answer with `then` (to order two CLIs' steps). */
  | { kind: "wait"; until: Promise<unknown>; then: ClaudeTurn };

/** One recorded HTTP request. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed JSON body, or null. */
  body: Record<string, unknown> | null;
  /** True when this request consumed a scripted turn (a main-agent turn). */
  main: boolean;
  headers: Record<string, string>;
}

/** A running mock server. */
export interface MockAnthropic {
  /** Base URL for `ANTHROPIC_BASE_URL`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Main-agent requests only. */
  mainRequests(): RecordedRequest[];
  /** Append scripted turns. */
  push(...turns: ClaudeTurn[]): void;
  /** Turns not consumed yet. */
  pending(): number;
  close(): Promise<void>;
}

/** Shortcut: a `StructuredOutput` tool call with `input`. */
export function structured(input: Record<string, unknown>): ClaudeTurn {
  return { kind: "tool", name: "StructuredOutput", input };
}

/** Shortcut: a `Bash` tool call. */
export function bash(command: string): ClaudeTurn {
  return { kind: "tool", name: "Bash", input: { command, description: "run" } };
}

let counter = 0;

function usage() {
  return {
    input_tokens: 10,
    output_tokens: 20,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function messageEvents(turn: ClaudeTurn, model: string): [string, unknown][] {
  const id = `msg_mock_${++counter}`;
  const events: [string, unknown][] = [[
    "message_start",
    {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage(), output_tokens: 1 },
      },
    },
  ]];
  if (turn.kind === "text") {
    events.push(
      ["content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      }],
      ["content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: turn.text },
      }],
    );
  } else if (turn.kind === "tool") {
    events.push(
      ["content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: {
          type: "tool_use",
          id: `toolu_mock_${counter}`,
          name: turn.name,
          input: {},
        },
      }],
      ["content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.input) },
      }],
    );
  }
  events.push(
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: turn.kind === "tool" ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 20 },
    }],
    ["message_stop", { type: "message_stop" }],
  );
  return events;
}

function plainMessage(text: string, model: string) {
  return {
    id: `msg_mock_${++counter}`,
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: usage(),
  };
}

function isMain(body: Record<string, unknown> | null): boolean {
  const tools = body?.tools;
  return Array.isArray(tools) && tools.length > 0;
}

/**
 * Start the mock on 127.0.0.1 with an ephemeral port.
 * @param turns initial scripted turns; when the script runs out a main turn gets a plain text reply
 *   `"(mock: no scripted turn)"`
 */
export function startMockAnthropic(turns: ClaudeTurn[] = []): MockAnthropic {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const server = serveLoopback(async (req) => {
    const url = new URL(req.url);
    const body = await readJsonBody(req);
    const main = url.pathname.endsWith("/v1/messages") && req.method === "POST" && isMain(body);
    requests.push({
      method: req.method,
      path: url.pathname,
      body,
      main,
      headers: Object.fromEntries(req.headers),
    });
    mockLog(`[mock_anthropic] ${req.method} ${url.pathname} main=${main} model=${body?.model}`);
    const model = typeof body?.model === "string" ? body.model : "claude-mock";
    if (url.pathname.endsWith("/count_tokens")) {
      return Response.json({ input_tokens: 10 });
    }
    if (!url.pathname.endsWith("/v1/messages") || req.method !== "POST") {
      return Response.json({ type: "error", error: { type: "not_found_error", message: "mock" } }, {
        status: 404,
      });
    }
    let turn: ClaudeTurn = main
      ? queue.shift() ?? { kind: "text", text: "(mock: no scripted turn)" }
      : { kind: "text", text: "Mock title" };
    while (turn.kind === "wait") {
      await turn.until;
      turn = turn.then;
    }
    if (turn.kind === "error") {
      return Response.json({
        type: "error",
        error: { type: turn.type ?? "api_error", message: turn.message ?? `mock ${turn.status}` },
      }, { status: turn.status, headers: { "request-id": `req_mock_${counter}` } });
    }
    if (body?.stream !== true) {
      const text = turn.kind === "text" ? turn.text : JSON.stringify(turn.input);
      return Response.json(plainMessage(text, model));
    }
    return sseResponse(messageEvents(turn, model));
  });
  return {
    url: server.url,
    requests,
    mainRequests: () => requests.filter((r) => r.main),
    push: (...more) => queue.push(...more),
    pending: () => queue.length,
    close: server.close,
  };
}
