import { deepEqual } from "node:assert/strict";
import { DEFAULT_CONFIG } from "../config.ts";
import { vibeAdapter } from "../providers/vibe.ts";
import { budgetsFor } from "./identity.ts";

Deno.test("budgetsFor() keeps configured budgets for providers without a prompt limit", () => {
  deepEqual(budgetsFor(DEFAULT_CONFIG), { perFileBytes: 65536, totalBytes: 400000 });
});

Deno.test("budgetsFor() shrinks the diff so a vibe prompt fits one argv element", () => {
  const limit = vibeAdapter.capabilities.maxPromptBytes!;
  const budgets = budgetsFor(DEFAULT_CONFIG, limit);
  deepEqual(budgets.totalBytes < 128 * 1024 - 16 * 1024, true);
  deepEqual(budgets.totalBytes, limit - 24 * 1024);
});
