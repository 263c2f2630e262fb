import assert from "node:assert/strict";
import { settingAsked, settingWords } from "./guard_config.ts";

Deno.test("settingAsked() accepts a loosened setting only when a sentence with a change verb names it", () => {
  const cases: [string, string, boolean][] = [
    ["Set fail_on to critical in .review-gate.json.", "fail_on", true],
    ["Set fail_on to critical in .review-gate.json.", "gates.claude_stop.enabled", false],
    ["Please disable the gate for now.", "gates.claude_stop.enabled", true],
    ["Turn claude_stop off in the review-gate config.", "gates.claude_stop.enabled", true],
    ["Update the claude_stop timeout_seconds.", "gates.claude_stop.enabled", false],
    ["Switch the claude-stop gate to warn mode.", "gates.claude_stop.mode", true],
    ["Set gates.pre_push.mode to warn.", "gates.pre_push.mode", true],
    ["Change the mode handling in src/parser.ts.", "gates.claude_stop.mode", false],
    ["Switch the review-gate provider to codex.", "provider", true],
    ["Switch the provider in src/app.ts to the new one.", "provider", false],
    ["Add src/** to the exclude list of my review-gate config.", "exclude", true],
    ["Raise max_blocks to 5.", "gates.claude_stop.max_blocks", true],
    ["Don't touch fail_on.", "fail_on", false],
    ["Explain what fail_on does.", "fail_on", false],
    ["fix what review-gate reported", "gates.claude_stop.enabled", false],
  ];
  for (const [prompt, setting, asked] of cases) {
    assert.equal(settingAsked(prompt, setting), asked, `${prompt} → ${setting}`);
  }
  assert.equal(settingAsked(undefined, "fail_on"), false);
});

Deno.test("settingWords() gives words settingAsked() accepts", () => {
  for (
    const setting of ["fail_on", "gates.claude_stop.enabled", "gates.claude_stop.mode", "provider"]
  ) {
    const words = settingWords(setting, ".review-gate.json").replaceAll('"', "").replace(
      " with ",
      " in ",
    );
    assert.ok(settingAsked(`Please change ${words}.`, setting), `${setting}: ${words}`);
  }
});
