import assert from "node:assert/strict";
import { eventLabel, hookTrustHash, hookTrustKey, readTrustState } from "./trust.ts";

Deno.test("hookTrustHash() reproduces the hashes codex-cli 0.171.0 reported for two hooks", async () => {
  // `codex app-server` hooks/list → currentHash, for the sample hooks.json (measured with the pinned codex, test/contract/versions.ts).
  assert.equal(
    await hookTrustHash({
      event: "UserPromptSubmit",
      command: "/work/notes/codex_hooks_scratch/hook.sh UserPromptSubmit /tmp/cxh/sample/ctl",
    }),
    "sha256:cd8ea327c05af7ca3d14b90674eb4659319720fd1f89ace904018aac6ba3541a",
  );
  assert.equal(
    await hookTrustHash({
      event: "Stop",
      command: "/work/notes/codex_hooks_scratch/hook.sh Stop /tmp/cxh/sample/ctl",
      timeout: 600,
    }),
    "sha256:f23aaf329b4667ff5e7fa30c25c1dac495ecdd95d85bec7f5ccfd1d2505bb190",
  );
  assert.equal(eventLabel("UserPromptSubmit"), "user_prompt_submit");
  assert.equal(hookTrustKey("/h/hooks.json", "Stop", 1, 0), "/h/hooks.json:stop:1:0");
});

Deno.test("readTrustState() reads trusted hashes, switched-off hooks, features.hooks and trusted projects", () => {
  const state = readTrustState(`model = "x"

[projects."/repo"]
trust_level = "trusted"

[hooks.state]
"/h/hooks.json:user_prompt_submit:0:0" = { trusted_hash = "sha256:aa" }

[hooks.state."/h/hooks.json:stop:0:0"]
trusted_hash = "sha256:bb"
enabled = false

[features]
hooks = false
`);
  assert.deepEqual(state.hooks.get("/h/hooks.json:user_prompt_submit:0:0"), {
    trustedHash: "sha256:aa",
  });
  assert.deepEqual(state.hooks.get("/h/hooks.json:stop:0:0"), {
    trustedHash: "sha256:bb",
    enabled: false,
  });
  assert.equal(state.hooksOff, true);
  assert.deepEqual([...state.trustedProjects], ["/repo"]);
  assert.equal(readTrustState("").hooksOff, false);
});

Deno.test("readTrustState() reads the same keys in any TOML spelling, and says when the file is not TOML", () => {
  const state = readTrustState(`features.hooks = false
projects.'/repo with space'.trust_level = "trusted"
hooks.state."/h/hooks.json:stop:0:0" = { trusted_hash = 'sha256:cc', enabled = true }

[projects."/other"]
trust_level = "untrusted"
`);
  assert.equal(state.hooksOff, true);
  assert.deepEqual([...state.trustedProjects], ["/repo with space"]);
  assert.deepEqual(state.hooks.get("/h/hooks.json:stop:0:0"), {
    trustedHash: "sha256:cc",
    enabled: true,
  });
  assert.equal(state.unreadable, undefined);
  const broken = readTrustState(`[hooks.state\ntrusted_hash = "sha256:aa"\n`);
  assert.match(broken.unreadable ?? "", /\S/);
  assert.deepEqual([broken.hooks.size, broken.trustedProjects.size, broken.hooksOff], [
    0,
    0,
    false,
  ]);
});
