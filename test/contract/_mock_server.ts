/**
 * HTTP plumbing shared by the loopback model mocks (mock_anthropic.ts, mock_openai.ts): a server on
 * 127.0.0.1 with an ephemeral port, the request body read as JSON, the `MOCK_LOG` trace line, and
 * server-sent-event replies (`event: <name>\ndata: <json>\n\n`, as both APIs stream).
 *
 * @module
 */

/**
 * Read a request body as a JSON object.
 * @returns the parsed body, or null when it is empty or not JSON
 */
export async function readJsonBody(req: Request): Promise<Record<string, unknown> | null> {
  try {
    const text = await req.text();
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Write `line` to stderr when `MOCK_LOG` is set (a trace of what the CLI asked the mock). */
export function mockLog(line: string): void {
  if (Deno.env.get("MOCK_LOG")) Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}

/** A `text/event-stream` response of `events`, each `[event name, data]`, data as JSON. */
export function sseResponse(events: [string, unknown][]): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
  return new Response(text, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/**
 * Serve `handler` on 127.0.0.1 with an ephemeral port.
 * @returns the base URL (`http://127.0.0.1:<port>`) and `close()`, which shuts the server down
 */
export function serveLoopback(
  handler: (req: Request) => Promise<Response>,
): { url: string; close: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const addr = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${addr.port}`, close: () => server.shutdown() };
}
