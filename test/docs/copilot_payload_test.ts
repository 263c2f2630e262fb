/**
 * The README documents the Copilot CLI hook payloads as it does Gemini CLI's: every field the Copilot
 * CLI payload parser reads (lib/gates/copilot/payload.ts, lib/gates/turn/payload.ts) is named in the
 * README's paragraph on them, with both hooks.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./repo_files.ts";

Deno.test("the README names every GitHub Copilot CLI hook payload field review-gate reads", () => {
  const parser = Deno.readTextFileSync(join(ROOT, "lib/gates/copilot/payload.ts")) +
    Deno.readTextFileSync(join(ROOT, "lib/gates/turn/payload.ts"));
  const fields = new Set([
    ...[...parser.matchAll(/optionalString\(raw, "([a-z_]+)"\)/g)].map((m) => m[1]),
    ...[...parser.matchAll(/raw\.([a-z_]+) === /g)].map((m) => m[1]),
    ...JSON.parse(parser.match(/for \(const key of (\[[^\]]+\])\)/)![1]),
  ]);
  assert.ok(
    fields.has("agent_id") && fields.has("transcript_path") && fields.has("stop_hook_active") &&
      fields.has("cwd"),
    [...fields].join(", "),
  );
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const start = readme.indexOf("**GitHub Copilot CLI** (`review-gate install --copilot`");
  assert.ok(start >= 0, "README has a paragraph on the Copilot CLI hooks");
  const paragraph = readme.slice(start, readme.indexOf("\n\n", start));
  const missing = [...fields].filter((f) => !paragraph.includes(`\`${f}\``));
  assert.deepEqual(missing, []);
  for (const hook of ["hook copilot-prompt", "hook copilot-stop"]) {
    assert.ok(paragraph.includes(hook));
  }
});
