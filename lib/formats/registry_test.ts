import assert from "node:assert/strict";
import type { RunRecord } from "../store/run_record.ts";
import { FORMAT_NAMES, getRenderer, type RenderInput } from "./registry.ts";
import { buildJsonEnvelope } from "./json.ts";
import { renderTerminal } from "./terminal.ts";

const policy = { failOn: "high", minConfidence: 0.5 } as const;
const record = {
  id: "20250101T000000Z-abcdef",
  status: "provider-error",
  blocking: false,
  reviewKind: "review",
  target: { kind: "worktree", label: "working tree" },
  provider: "claude",
  startedAt: "2025-01-01T00:00:00.000Z",
  finishedAt: "2025-01-01T00:00:01.000Z",
  durationMs: 1000,
  attempts: [],
  cached: false,
  message: "boom",
  runDir: "/r",
} satisfies RunRecord;
const input: RenderInput = { record, exitCode: 3, rawOutput: { stdout: "o", stderr: "e" } };

Deno.test("getRenderer() renders through the format's own module", async () => {
  assert.deepEqual(FORMAT_NAMES, [
    "terminal",
    "json",
    "markdown",
    "sarif",
    "rdjson",
    "rdjsonl",
    "github",
  ]);
  assert.equal(
    await (await getRenderer("terminal"))(input, { policy }),
    renderTerminal(input, { policy }),
  );
  const envelope = buildJsonEnvelope(input, { exitCode: 3, policy, rawOutput: input.rawOutput });
  assert.deepEqual(JSON.parse(await (await getRenderer("json"))(input, { policy })), envelope);
});

Deno.test("getRenderer() refuses an unknown format and a kind without that format", async () => {
  await assert.rejects(
    () => getRenderer("xml"),
    /Unknown format "xml": choose one of terminal, json/,
  );
  const compliance = { ...input, record: { ...record, answerKind: "compliance" } };
  const sarif = await getRenderer("sarif");
  await assert.rejects(
    () => sarif(compliance, { policy }),
    /The sarif format cannot show a "compliance" run: use terminal, json, markdown/,
  );
});

Deno.test("markdown says NOT reviewed for a review that could not run", async () => {
  const md = await (await getRenderer("markdown"))(input, { policy });
  assert.match(md, /^# Review: NOT reviewed — provider-error/);
  assert.match(md, /> NOT reviewed: provider-error: boom/);
  assert.doesNotMatch(md, /approved/i);
});
