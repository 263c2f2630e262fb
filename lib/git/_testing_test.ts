import assert from "node:assert/strict";
import { toolsRequired } from "./_testing.ts";

const envOf = (vars: Record<string, string>) => ({ get: (name: string) => vars[name] });

Deno.test("toolsRequired() is on under CI and with REVIEW_GATE_CONTRACT_REQUIRE=1", () => {
  assert.equal(toolsRequired(envOf({})), false);
  assert.equal(toolsRequired(envOf({ CI: "" })), false);
  assert.equal(toolsRequired(envOf({ CI: "false" })), false);
  assert.equal(toolsRequired(envOf({ CI: "0" })), false);
  assert.equal(toolsRequired(envOf({ CI: "true" })), true);
  assert.equal(toolsRequired(envOf({ CI: "1" })), true);
  assert.equal(toolsRequired(envOf({ REVIEW_GATE_CONTRACT_REQUIRE: "1" })), true);
});

Deno.test("assertShellcheckClean() fails under CI when shellcheck is missing, skips elsewhere", async () => {
  const run = async (ci: string) => {
    const code = `import { assertShellcheckClean } from ${
      JSON.stringify(import.meta.resolve("./_testing.ts"))
    }; await assertShellcheckClean("#!/bin/sh\\necho hi\\n");`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", code],
      env: { PATH: "/nonexistent", CI: ci, REVIEW_GATE_CONTRACT_REQUIRE: "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  const ci = await run("1");
  assert.notEqual(ci.code, 0);
  assert.match(ci.stderr, /shellcheck is required under CI but is not installed/);
  assert.equal((await run("")).code, 0);
});
