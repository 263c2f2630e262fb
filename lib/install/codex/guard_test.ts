import assert from "node:assert/strict";
import { join } from "node:path";
import { applyActions } from "../file_actions.ts";
import { codexGuardStatus, planCodexGuard } from "./guard.ts";

async function withHome(config: string | null, fn: (env: Record<string, string>) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rg-codex-guard-" }));
  try {
    await Deno.mkdir(join(dir, "codex"));
    if (config !== null) await Deno.writeTextFile(join(dir, "codex", "config.toml"), config);
    await fn({ HOME: dir, CODEX_HOME: join(dir, "codex"), XDG_STATE_HOME: join(dir, "state") });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const config of ['model = "x"\n\n[tools]\nweb = true\n', 'model = "x"', "", null]) {
  Deno.test(`planCodexGuard(): install then uninstall gives ${JSON.stringify(config)} back`, async () => {
    await withHome(config, async (env) => {
      const path = join(env.CODEX_HOME, "config.toml");
      await applyActions((await planCodexGuard(true, env)).actions);
      const text = await Deno.readTextFile(path);
      assert.match(text, /^default_permissions = "review-gate" # managed-by: review-gate\n/);
      assert.match(text, new RegExp(`"${env.XDG_STATE_HOME}/review-gate" = "none"`));
      assert.deepEqual(await codexGuardStatus(env), { on: true });
      assert.equal((await planCodexGuard(true, env)).actions.length, 0, "idempotent");
      await applyActions((await planCodexGuard(false, env)).actions);
      const back = await Deno.readTextFile(path);
      assert.equal(back, config ?? "");
      assert.equal((await codexGuardStatus(env)).on, false);
    });
  });
}

Deno.test("planCodexGuard(): sandbox_mode or the user's own profile: nothing written, the reason named", async () => {
  await withHome('sandbox_mode = "workspace-write"\n', async (env) => {
    const plan = await planCodexGuard(true, env);
    assert.equal(plan.actions.length, 0);
    assert.match(plan.text, /NOT added \(config.toml sets sandbox_mode/);
  });
  await withHome('default_permissions = "mine"\n', async (env) => {
    const plan = await planCodexGuard(true, env);
    assert.equal(plan.actions.length, 0);
    assert.match(plan.text, /already selects the permission profile "mine"/);
  });
});

Deno.test("codexGuardStatus(): a sandbox_mode added after install makes Codex ignore the profile", async () => {
  await withHome('model = "x"\n', async (env) => {
    await applyActions((await planCodexGuard(true, env)).actions);
    const path = join(env.CODEX_HOME, "config.toml");
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(
      path,
      text.replace('model = "x"', 'model = "x"\nsandbox_mode = "read-only"'),
    );
    const status = await codexGuardStatus(env);
    assert.equal(status.on, false);
    assert.match((status as { why: string }).why, /sandbox_mode/);
  });
});
