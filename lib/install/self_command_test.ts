import assert from "node:assert/strict";
import { UsageError } from "../base/errors.ts";
import { selfCommand, shellQuote } from "./self_command.ts";
import { runProcess } from "../exec/exec.ts";

Deno.test("shellQuote() survives sh for spaces, quotes, $ and empty words", async () => {
  const words = ["plain", "with space", "it's", `"$HOME" \`x\` \\n`, ""];
  const script = `printf '%s\\n' ${words.map(shellQuote).join(" ")}`;
  const result = await runProcess({ cmd: "sh", args: ["-c", script] });
  assert.equal(new TextDecoder().decode(result.stdout), words.map((w) => w + "\n").join(""));
});

Deno.test("selfCommand() names a compiled binary alone and deno run main.ts otherwise", () => {
  assert.equal(selfCommand({ execPath: "/opt/rg/review-gate" }), "'/opt/rg/review-gate'");
  assert.equal(
    selfCommand({ execPath: "/usr/bin/deno", mainPath: "/src/review gate/main.ts" }),
    "'/usr/bin/deno' run --allow-read --allow-write --allow-env --allow-run '/src/review gate/main.ts'",
  );
});

Deno.test("selfCommand() refuses relative paths and a missing main.ts", () => {
  assert.throws(() => selfCommand({ execPath: "review-gate" }), UsageError);
  assert.throws(() => selfCommand({ execPath: "/usr/bin/deno" }), UsageError);
  assert.throws(() => selfCommand({ execPath: "/usr/bin/deno", mainPath: "main.ts" }), UsageError);
});
