import assert from "node:assert/strict";
import { HOOK_NAMES } from "../gates/registry.ts";
import { hookRoutes } from "./hook.ts";

Deno.test("`hook --help` lists every hook install writes: all of the registry but the workers the tool hooks start", () => {
  const routes = hookRoutes.hook as unknown as {
    getAllEntries(): readonly { name: { original: string } }[];
  };
  const listed = routes.getAllEntries().map((e) => e.name.original).sort();
  const expected = HOOK_NAMES.filter((name) => !name.endsWith("-worker")).sort();
  assert.deepEqual(listed, expected);
});
