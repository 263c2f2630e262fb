/**
 * End to end: `review-gate gate disable|warn …` run inside a coding agent's session (an agent
 * marker set, lib/base/agent_env.ts) refuses and tells the user to run it in their own terminal;
 * stricter edits (`gate enable`, `gate block`) go through, and without a marker the loosening
 * edit works. The markers can be unset: the turn gate's guard holds such a change back all the
 * same (test/gates/stop_guard_test.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeGateSandbox, runCli } from "./_gates.ts";

Deno.test("gate disable and gate warn refuse inside an agent's session; stricter edits do not", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const config = join(sb.repo.root, ".review-gate.json");
  const read = () => Deno.readTextFile(config).catch(() => null);
  try {
    for (
      const [marker, args] of [
        ["CLAUDECODE", ["gate", "disable", "claude-stop"]],
        ["CODEX_SANDBOX", ["gate", "warn", "claude-stop"]],
        ["CLAUDECODE", ["gate", "disable", "all", "--user"]],
      ] as const
    ) {
      await t.step(`${args.join(" ")} with ${marker}=1 refuses`, async () => {
        const before = await read();
        const r = await runCli(sb, [...args], { env: { [marker]: "1" } });
        assert.equal(r.code, 2, r.stdout + r.stderr);
        assert.match(r.stderr, new RegExp(`${marker} is set`));
        assert.match(r.stderr, /Run it yourself in your own terminal/);
        assert.equal(await read(), before, "nothing was written");
      });
    }

    await t.step("gate enable and gate block are allowed with CLAUDECODE=1", async () => {
      for (const verb of ["enable", "block"]) {
        const r = await runCli(sb, ["gate", verb, "claude-stop"], { env: { CLAUDECODE: "1" } });
        assert.equal(r.code, 0, r.stderr);
      }
      assert.match(String(await read()), /"mode": "block"/);
    });

    await t.step("without a marker, gate disable claude-stop works", async () => {
      const r = await runCli(sb, ["gate", "disable", "claude-stop"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /claude-stop: disabled/);
      const written = JSON.parse(String(await read()));
      assert.equal(written.gates.claude_stop.enabled, false);
    });
  } finally {
    await sb.cleanup();
  }
});
