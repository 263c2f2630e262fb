import assert from "node:assert/strict";
import { runProcess } from "../../exec/exec.ts";
import { claudeSandboxProblem } from "./sandbox_host.ts";

Deno.test("claudeSandboxProblem(): on Linux without bwrap and socat on PATH the sandbox cannot run", async () => {
  const problem = await claudeSandboxProblem(runProcess, { PATH: "" }, "linux");
  assert.match(problem!, /needs bwrap \(bubblewrap\) and socat, not found on PATH/);
  assert.match(problem!, /runs Bash unconfined/);
});

Deno.test("claudeSandboxProblem(): no sandbox on Windows", async () => {
  assert.match((await claudeSandboxProblem(runProcess, {}, "windows"))!, /no Bash sandbox/);
});

Deno.test("claudeSandboxProblem(): a bwrap that fails its trial run is named", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rg-bwrap-" });
  try {
    for (const name of ["bwrap", "socat"]) {
      await Deno.writeTextFile(
        `${dir}/${name}`,
        "#!/bin/sh\necho 'setting up uid map: Permission denied' >&2\nexit 1\n",
        { mode: 0o755 },
      );
    }
    const problem = await claudeSandboxProblem(runProcess, { PATH: dir }, "linux");
    assert.match(problem!, /bwrap cannot run here \(setting up uid map: Permission denied\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
