import assert from "node:assert/strict";
import { join } from "../base/path.ts";
import {
  agentScopeHooks,
  type AgentSettings,
  agentSettingsPath,
  installAgentHooks,
  missingProgramDetail,
  stopTimeoutSeconds,
  uninstallAgentHooks,
} from "./agent_settings.ts";
import { withSettingsDirs } from "./test_settings_dirs.ts";

/** A made-up agent reading `$AGENT_HOME/settings.json` and `<root>/.agent/settings.json`. */
const AGENT: AgentSettings = {
  product: "Agent X",
  projectDir: ".agent",
  userDir: (env) => env.AGENT_HOME,
  homeVars: "AGENT_HOME",
  events: ["Stop"],
};

/** One Stop group running `command`, the way an agent's entries module builds it. */
const build = (command: string, opts: { stopTimeoutSeconds?: number }) => ({
  Stop: {
    hooks: [{
      type: "command",
      command: `${command} hook x-stop # managed-by: review-gate`,
      timeout: (opts.stopTimeoutSeconds ?? 1) * 1000,
    }],
  },
});
const TEXT = { why: "add ours", runNote: "Agent X runs them." };

Deno.test("agentSettingsPath(): the project's folder, the user's home, and a named error without one", () => {
  const where = { root: "/r", env: { AGENT_HOME: "/h" } };
  assert.equal(agentSettingsPath(AGENT, "project", where), join("/r", ".agent", "settings.json"));
  assert.equal(agentSettingsPath(AGENT, "user", where), join("/h", "settings.json"));
  assert.throws(
    () => agentSettingsPath(AGENT, "user", { root: "/r", env: {} }),
    /Cannot find Agent X's home: set AGENT_HOME, or use --scope project/,
  );
});

Deno.test("installAgentHooks() needs a command; uninstallAgentHooks() without a home removes nothing", async () => {
  await assert.rejects(
    () => installAgentHooks(AGENT, { scope: "project", root: "/r", env: {} }, build, TEXT),
    /Cannot install the Agent X hooks without a command/,
  );
  const report = await uninstallAgentHooks(AGENT, { scope: "user", root: "/r", env: {} });
  assert.deepEqual(report, {
    path: "",
    actions: [],
    text: "Agent X hooks: no AGENT_HOME, nothing to remove\n",
  });
});

Deno.test("agentScopeHooks(): our entries per scope, a parse error named, files without ours left out", async () => {
  await withSettingsDirs("UNUSED", async (root, env) => {
    const options = { root, env: { ...env, AGENT_HOME: env.HOME }, command: "/bin/sh" };
    assert.deepEqual(await agentScopeHooks(AGENT, options), [], "no files yet");
    await installAgentHooks(
      AGENT,
      { ...options, scope: "project", stopTimeoutSeconds: 7 },
      build,
      TEXT,
    );
    await Deno.mkdir(env.HOME, { recursive: true });
    await Deno.writeTextFile(join(env.HOME, "settings.json"), '{"hooks": {}}');
    let found = await agentScopeHooks(AGENT, options);
    assert.equal(found.length, 1, "the user's file holds none of ours");
    assert.equal(found[0].scope, "project");
    assert.ok("entries" in found[0]);
    assert.deepEqual(found[0].entries.map((e) => [e.event, e.hook.timeout]), [["Stop", 7000]]);
    await Deno.writeTextFile(join(env.HOME, "settings.json"), "{ nope");
    found = await agentScopeHooks(AGENT, options);
    assert.deepEqual(found.map((f) => [f.scope, "error" in f]), [["user", true], [
      "project",
      false,
    ]]);
    assert.equal(found[0].path, join(env.HOME, "settings.json"));
    found = await agentScopeHooks(AGENT, { root, env: {} });
    assert.deepEqual(
      found.map((f) => f.scope),
      ["project"],
      "no home: the user's scope is skipped",
    );
  });
});

Deno.test("stopTimeoutSeconds(): ms to seconds, the default without one, undefined for a non-number", () => {
  const on = (timeout: unknown) => [{ event: "Stop", hook: { timeout } }];
  assert.equal(stopTimeoutSeconds(on(120_000), "Stop", 60), 120);
  assert.equal(stopTimeoutSeconds(on(undefined), "Stop", 60), 60);
  assert.equal(stopTimeoutSeconds(on("300"), "Stop", 60), undefined);
  assert.equal(stopTimeoutSeconds(on(5000), "AfterAgent", 45), 45, "another event's entry");
});

Deno.test("missingProgramDetail(): names the gone program, the agent and the reinstall; null when it exists", async () => {
  const gone = "/nonexistent-review-gate-dir/review-gate";
  const entries = (command: string) => [{ event: "Stop", hook: { command } }];
  const detail = await missingProgramDetail(AGENT, entries(`'${gone}' hook x-stop`), "rg again");
  assert.match(
    String(detail),
    /"\/nonexistent-review-gate-dir\/review-gate", which does not exist/,
  );
  assert.match(String(detail), /every Agent X turn's hooks will fail until you run "rg again"/);
  assert.equal(await missingProgramDetail(AGENT, entries("'/bin/sh' hook x-stop"), "rg"), null);
});
