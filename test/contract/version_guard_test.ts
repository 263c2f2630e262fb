/**
 * Version guard: the installed provider CLIs must be exactly the versions pinned in versions.ts
 * (the envelopes in PROVIDERS.md were verified against those). Envelope shapes are guarded by
 * shapes.ts in every case.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runProcess } from "../../lib/exec.ts";
import { findCli, haveCli, makeSandbox } from "./env.ts";
import { PINNED } from "./versions.ts";

for (const name of ["claude", "codex"] as const) {
  Deno.test({
    name: `${name} --version is the pinned ${PINNED[name].version}`,
    ignore: !haveCli(name),
    async fn() {
      const sb = await makeSandbox();
      try {
        const result = await runProcess({
          cmd: findCli(name)!,
          args: ["--version"],
          env: { HOME: sb.home, CODEX_HOME: sb.codexHome, DISABLE_AUTOUPDATER: "1" },
          timeoutMs: 30_000,
        });
        const out = new TextDecoder().decode(result.stdout).trim();
        assert.equal(result.code, 0, `${name} --version failed`);
        const version = out.match(/\d+\.\d+\.\d+/)?.[0];
        assert.equal(
          version,
          PINNED[name].version,
          `${name} is ${version ?? `"${out}"`} but the contract suite is pinned to ` +
            `${PINNED[name].version}: re-verify PROVIDERS.md against the new CLI, then update ` +
            `test/contract/versions.ts and scripts/install_provider_clis.sh together`,
        );
      } finally {
        await sb.cleanup();
      }
    },
  });
}

Deno.test("the install script pins the same versions as versions.ts", async () => {
  const script = await Deno.readTextFile(
    new URL("../../scripts/install_provider_clis.sh", import.meta.url),
  );
  assert.match(
    script,
    new RegExp(`CLAUDE_VERSION="${PINNED.claude.version.replaceAll(".", "\\.")}"`),
  );
  assert.match(
    script,
    new RegExp(`CODEX_VERSION="${PINNED.codex.version.replaceAll(".", "\\.")}"`),
  );
});
