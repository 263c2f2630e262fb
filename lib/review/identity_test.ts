import { deepEqual, rejects } from "node:assert/strict";
import type { Config } from "../config/config.ts";
import { UsageError } from "../base/errors.ts";
import { DEFAULT_CONFIG } from "../config/config.ts";
import { VIBE_META } from "../providers/vibe/meta.ts";
import { budgetsFor, verdictIdentity } from "./identity.ts";

Deno.test("budgetsFor() keeps configured budgets for providers without a prompt limit", () => {
  deepEqual(budgetsFor(DEFAULT_CONFIG), { perFileBytes: 65536, totalBytes: 400000, maxCalls: 8 });
});

Deno.test("budgetsFor() shrinks the diff so a vibe prompt fits one argv element", () => {
  const limit = VIBE_META.maxPromptBytes;
  const budgets = budgetsFor(DEFAULT_CONFIG, limit);
  deepEqual(budgets.totalBytes < 128 * 1024 - 16 * 1024, true);
  deepEqual(budgets.totalBytes, limit - 24 * 1024);
});

Deno.test("verdictIdentity() sizes budgets by the provider's prompt limit", async () => {
  const vibe = await verdictIdentity({ ...DEFAULT_CONFIG, provider: "vibe" }, { kind: "review" });
  deepEqual(vibe.provider, "vibe");
  deepEqual(vibe.budgets, budgetsFor(DEFAULT_CONFIG, VIBE_META.maxPromptBytes));
  const claude = await verdictIdentity({ ...DEFAULT_CONFIG, provider: "claude" }, {
    kind: "review",
  });
  deepEqual(claude.provider, "claude");
  deepEqual(claude.budgets, budgetsFor(DEFAULT_CONFIG));
});

Deno.test("verdictIdentity() under auto keys by the provider auto chooses", async () => {
  const fake = new URL("../../fixtures/fake/bin/vibe", import.meta.url).pathname;
  const env = { PATH: "/nonexistent", HOME: "/nonexistent", REVIEW_GATE_VIBE_BIN: fake };
  const auto = await verdictIdentity(DEFAULT_CONFIG, { kind: "review", env });
  const vibe = await verdictIdentity({ ...DEFAULT_CONFIG, provider: "vibe" }, {
    kind: "review",
    env,
  });
  deepEqual(auto, vibe);
  deepEqual(auto.budgets, budgetsFor(DEFAULT_CONFIG, VIBE_META.maxPromptBytes));
});

Deno.test("verdictIdentity() throws UsageError naming the choices for an unknown provider", async () => {
  const config = { ...DEFAULT_CONFIG, provider: "gpt" } as unknown as Config;
  await rejects(
    verdictIdentity(config, { kind: "review" }),
    (e) =>
      e instanceof UsageError && /Unknown provider "gpt": choose one of "claude"/.test(e.message),
  );
});
