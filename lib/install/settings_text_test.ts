import assert from "node:assert/strict";
import { editSettingsText } from "./settings_text.ts";

const GROUP = { hooks: [{ type: "command", command: "/opt/review-gate hook qwen-stop" }] };

Deno.test("editSettingsText() adds hooks after the last property and leaves that line as it was", async () => {
  const text = '{\n\t"model": {"name": "qwen3-coder"}\n}\n';
  const out = await editSettingsText(text, { Stop: GROUP });
  assert.ok(
    out.startsWith('{\n\t"model": {"name": "qwen3-coder"},\n\t"hooks": {\n\t\t"Stop": ['),
    out,
  );
  assert.deepEqual(JSON.parse(out), { model: { name: "qwen3-coder" }, hooks: { Stop: [GROUP] } });
});

Deno.test("editSettingsText() adds a new event after the user's own events, their lines untouched", async () => {
  const text =
    '{\n  "hooks": {\n    "Other": [{"hooks": [{"type": "command", "command": "x"}]}]\n  }\n}\n';
  const out = await editSettingsText(text, { Stop: GROUP });
  assert.ok(
    out.startsWith(
      '{\n  "hooks": {\n    "Other": [{"hooks": [{"type": "command", "command": "x"}]}],\n    "Stop": [',
    ),
    out,
  );
  assert.deepEqual(Object.keys(JSON.parse(out).hooks), ["Other", "Stop"]);
});

Deno.test("editSettingsText() fills an empty file's braces", async () => {
  const out = await editSettingsText("{}\n", { Stop: GROUP });
  assert.deepEqual(JSON.parse(out), { hooks: { Stop: [GROUP] } });
});
