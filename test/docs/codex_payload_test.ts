/**
 * The README documents the Codex hook payloads as it does Claude Code's: every field the Codex
 * payload parser reads (lib/gates/codex/payload.ts, lib/gates/turn/payload.ts) is named in the
 * README's paragraph on them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./repo_files.ts";

Deno.test("the README names every Codex hook payload field review-gate reads", () => {
  const parser = Deno.readTextFileSync(join(ROOT, "lib/gates/codex/payload.ts")) +
    Deno.readTextFileSync(join(ROOT, "lib/gates/turn/payload.ts"));
  const fields = new Set([
    ...[...parser.matchAll(/optionalString\(raw, "([a-z_]+)"\)/g)].map((m) => m[1]),
    ...[...parser.matchAll(/raw\.([a-z_]+)/g)].map((m) => m[1]),
    ...JSON.parse(parser.match(/for \(const key of (\[[^\]]+\])\)/)![1]),
  ]);
  assert.ok(fields.has("turn_id") && fields.has("session_id"), [...fields].join(", "));
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const start = readme.indexOf("The Codex hooks read Codex's payload on stdin");
  assert.ok(start >= 0, "README has a paragraph on the Codex hook payloads");
  const paragraph = readme.slice(start, readme.indexOf("\n\n", start));
  const missing = [...fields].filter((f) => !paragraph.includes(`\`${f}\``));
  assert.deepEqual(missing, []);
  for (const hook of ["hook codex-prompt", "hook codex-stop"]) assert.ok(paragraph.includes(hook));
});
