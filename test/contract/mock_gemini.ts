/**
 * A loopback mock of the Gemini API (`generativelanguage`'s `generateContent` and
 * `streamGenerateContent`) for the contract tests: what the real `gemini` binary calls when
 * `GOOGLE_GEMINI_BASE_URL` points at it, with API-key auth and any key (docs/providers.md
 * "Loopback mock models"). Each test scripts the model's turns; every request body is recorded so
 * tests can assert what the CLI sent (`tools`, the prompt, the corrective prompt).
 *
 * Routing: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` and `…:generateContent` with
 * function declarations in `tools` are main-agent turns and consume the script; other requests
 * (`countTokens`, a side request without tools) are answered trivially and never consume it.
 *
 * Reply shape: SSE `data:` chunks of `GenerateContentResponse` — `candidates[0].content.parts` (a
 * `text` or a `functionCall {name, args}`), `finishReason: "STOP"`, `usageMetadata` — or one such
 * object for `generateContent`. An error is `{error: {code, message, status}}` with that HTTP
 * status (the Google API error shape).
 *
 * @module
 */

import { mockLog, readJsonBody, serveLoopback } from "./_mock_server.ts";

/** One function call of a scripted turn; `name` should be a tool the CLI declared. */
export interface GeminiCall {
  name: string;
  args: Record<string, unknown>;
}

/** One scripted model turn. */
export type GeminiTurn =
  | { kind: "message"; text: string }
  | { kind: "calls"; calls: GeminiCall[]; text?: string }
  | { kind: "error"; status: number; message?: string }
  /** A reply that never comes (the CLI hangs waiting: a timeout must kill it). */
  | { kind: "hang" };

/** One recorded request. */
export interface GeminiRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-mock:streamGenerateContent?alt=sse`. */
  path: string;
  body: Record<string, unknown> | null;
  headers: Record<string, string>;
  /** True when this request consumed a scripted turn. */
  main: boolean;
}

/** A running mock. */
export interface MockGemini {
  /** Base URL for `GOOGLE_GEMINI_BASE_URL`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  requests: GeminiRequest[];
  /** Main-agent requests only. */
  turns(): GeminiRequest[];
  push(...turns: GeminiTurn[]): void;
  pending(): number;
  close(): Promise<void>;
}

/** Token counts every reply reports (`usageMetadata`). */
export const MOCK_USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/** A turn answering `answer` as JSON text (Gemini CLI has no schema flag). */
export function jsonAnswer(answer: unknown): GeminiTurn {
  return { kind: "message", text: JSON.stringify(answer) };
}

/** The names of the function declarations a request offered, sorted. */
export function declaredTools(body: Record<string, unknown> | null): string[] {
  const tools = (body?.tools ?? []) as { functionDeclarations?: { name: string }[] }[];
  return tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)).sort();
}

/** The `contents` of a request as text (to search for what reached the model). */
export function contentsText(body: Record<string, unknown> | null): string {
  return JSON.stringify(body?.contents ?? []);
}

/** The function responses a request carries back to the model, as text. */
export function functionResponses(body: Record<string, unknown> | null): string {
  const contents = (body?.contents ?? []) as { parts?: Record<string, unknown>[] }[];
  return JSON.stringify(
    contents.flatMap((c) => (c.parts ?? []).filter((p) => "functionResponse" in p)),
  );
}

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
};

function reply(turn: Exclude<GeminiTurn, { kind: "hang" | "error" }>, model: string): unknown {
  const parts: Record<string, unknown>[] = [];
  const text = turn.kind === "message" ? turn.text : turn.text;
  if (text) parts.push({ text });
  if (turn.kind === "calls") {
    for (const call of turn.calls) {
      parts.push({ functionCall: { name: call.name, args: call.args } });
    }
  }
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: MOCK_USAGE,
    modelVersion: model,
  };
}

/**
 * Start the mock on 127.0.0.1 with an ephemeral port.
 * @param turns initial script; when it runs out a turn gets the message `"(mock: no scripted turn)"`
 */
export function startMockGemini(turns: GeminiTurn[] = []): MockGemini {
  const queue = [...turns];
  const requests: GeminiRequest[] = [];
  const hung: (() => void)[] = [];
  const server = serveLoopback(async (req) => {
    const url = new URL(req.url);
    const body = await readJsonBody(req);
    const match = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
    const method = match?.[2] ?? "";
    const model = match?.[1] ?? "gemini-mock";
    const main = req.method === "POST" && /^(stream)?generateContent$/i.test(method) &&
      declaredTools(body).length > 0;
    requests.push({
      method: req.method,
      path: url.pathname + url.search,
      body,
      headers: Object.fromEntries(req.headers),
      main,
    });
    mockLog(`[mock_gemini] ${req.method} ${url.pathname}${main ? " (main)" : ""}`);
    if (method === "countTokens") return Response.json({ totalTokens: 10 });
    if (!/^(stream)?generateContent$/i.test(method)) {
      return Response.json({
        error: { code: 404, message: "mock: not found", status: "NOT_FOUND" },
      }, {
        status: 404,
      });
    }
    const turn: GeminiTurn = main
      ? queue.shift() ?? { kind: "message", text: "(mock: no scripted turn)" }
      : { kind: "message", text: "{}" };
    if (turn.kind === "hang") {
      await new Promise<void>((resolve) => hung.push(resolve));
      return new Response("", { status: 503 });
    }
    if (turn.kind === "error") {
      return Response.json({
        error: {
          code: turn.status,
          message: turn.message ?? `mock ${turn.status}`,
          status: STATUS[turn.status] ?? "UNKNOWN",
        },
      }, { status: turn.status });
    }
    const chunk = reply(turn, model);
    if (method === "generateContent") return Response.json(chunk);
    return new Response(`data: ${JSON.stringify(chunk)}\r\n\r\n`, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  });
  return {
    url: server.url,
    requests,
    turns: () => requests.filter((r) => r.main),
    push: (...more) => queue.push(...more),
    pending: () => queue.length,
    close: async () => {
      for (const release of hung.splice(0)) release();
      await server.close();
    },
  };
}
