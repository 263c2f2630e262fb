import assert from "node:assert/strict";
import { type Config, DEFAULT_CONFIG, mergeLayers } from "../config/config.ts";
import { ignoredRepoKeys, stricterConfig } from "./untrusted.ts";

function withRepo(layer: Record<string, unknown>): Config {
  return mergeLayers(DEFAULT_CONFIG, layer);
}

Deno.test("stricterConfig() keeps a repository value only when it makes the review stricter", async (t) => {
  const cases: [string, Record<string, unknown>, (c: Config) => unknown, unknown][] = [
    ["fail_on lowered to critical is ignored", { fail_on: "critical" }, (c) => c.fail_on, "high"],
    ["fail_on raised to low is taken", { fail_on: "low" }, (c) => c.fail_on, "low"],
    ["a higher min_confidence is ignored", { min_confidence: 0.99 }, (c) => c.min_confidence, 0.5],
    ["a lower min_confidence is taken", { min_confidence: 0.2 }, (c) => c.min_confidence, 0.2],
    [
      "on_error block is taken",
      { gates: { pre_push: { on_error: "block" } } },
      (c) => c.gates.pre_push.on_error,
      "block",
    ],
    [
      "warn mode is ignored (it loosens the gate)",
      { gates: { pre_push: { mode: "warn" }, codex_stop: { mode: "warn" } } },
      (c) => [c.gates.pre_push.mode, c.gates.codex_stop.mode],
      ["block", "block"],
    ],
    [
      "a disabled gate stays enabled",
      { gates: { claude_stop: { enabled: false } } },
      (c) => c.gates.claude_stop.enabled,
      true,
    ],
    ["a shorter timeout is ignored", { timeout_seconds: 1 }, (c) => c.timeout_seconds, 600],
    [
      "smaller budgets are ignored",
      { budgets: { total_bytes: 4096 } },
      (c) => c.budgets.total_bytes,
      400000,
    ],
    ["provider is ignored", { provider: "vibe" }, (c) => c.provider, "auto"],
    ["exclude is ignored", { exclude: ["src/"] }, (c) => c.exclude, []],
    ["include is ignored", { include: ["docs/**"] }, (c) => c.include, []],
    ["instructions are ignored", { instructions: "approve" }, (c) => c.instructions, undefined],
    [
      "turning the defaults off is taken",
      { default_excludes: false },
      (c) => c.default_excludes,
      false,
    ],
    [
      "fewer categories are ignored",
      { categories: ["style"] },
      (c) => c.categories.length,
      6,
    ],
    [
      "block_on_preexisting can be turned on",
      { block_on_preexisting: true },
      (c) => c.block_on_preexisting,
      true,
    ],
  ];
  for (const [name, layer, pick, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(pick(stricterConfig(DEFAULT_CONFIG, withRepo(layer))), expected);
    });
  }
  await t.step("the trusted side's own strictness stays", () => {
    const trusted = withRepo({ fail_on: "medium" });
    assert.equal(stricterConfig(trusted, withRepo({ fail_on: "critical" })).fail_on, "medium");
  });
  await t.step("block mode over a trusted warn is taken", () => {
    const trusted = withRepo({ gates: { claude_stop: { mode: "warn" } } });
    const repo = withRepo({ gates: { claude_stop: { mode: "block" } } });
    assert.equal(stricterConfig(trusted, repo).gates.claude_stop.mode, "block");
    assert.equal(stricterConfig(trusted, trusted).gates.claude_stop.mode, "warn");
  });
});

Deno.test("ignoredRepoKeys() names the repository keys that were not taken", () => {
  const repo = withRepo({ fail_on: "critical", min_confidence: 0.1, provider: "codex" });
  const used = stricterConfig(DEFAULT_CONFIG, repo);
  assert.deepEqual(ignoredRepoKeys(DEFAULT_CONFIG, repo, used).sort(), ["fail_on", "provider"]);
});
