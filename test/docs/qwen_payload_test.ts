/**
 * The README documents the Qwen Code hook payloads as it does Codex's: every field the Qwen Code
 * payload parser reads (lib/gates/qwen/payload.ts, lib/gates/turn/payload.ts) is named in the
 * README's paragraph on them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./repo_files.ts";

Deno.test("the README names every Qwen Code hook payload field review-gate reads", () => {
  const parser = Deno.readTextFileSync(join(ROOT, "lib/gates/qwen/payload.ts")) +
    Deno.readTextFileSync(join(ROOT, "lib/gates/turn/payload.ts"));
  const fields = new Set([
    ...[...parser.matchAll(/optionalString\(raw, "([a-z_]+)"\)/g)].map((m) => m[1]),
    ...JSON.parse(parser.match(/for \(const key of (\[[^\]]+\])\)/)![1]),
    "stop_hook_active",
  ]);
  assert.ok(fields.has("agent_id") && fields.has("prompt"), [...fields].join(", "));
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const start = readme.indexOf("The Qwen Code hooks read Qwen Code's payload on stdin");
  assert.ok(start >= 0, "README has a paragraph on the Qwen Code hook payloads");
  const paragraph = readme.slice(start, readme.indexOf("\n\n", start));
  const missing = [...fields].filter((f) => !paragraph.includes(`\`${f}\``));
  assert.deepEqual(missing, []);
  for (const hook of ["hook qwen-prompt", "hook qwen-stop"]) assert.ok(paragraph.includes(hook));
});
