import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG, envLayer, loadConfig, mergeLayers, parseConfigText } from "./config.ts";
import { ConfigError } from "../base/errors.ts";
import { configProblems } from "./validate.ts";
import { CONFIG_VALIDATOR_PATH, configValidatorSource } from "../../scripts/gen_validators.ts";

Deno.test("the generated config validator is up to date with schemas/config.schema.json", async () => {
  equal(
    await Deno.readTextFile(CONFIG_VALIDATOR_PATH),
    configValidatorSource(),
    "run: deno task gen",
  );
});

Deno.test("an empty config layer is valid, as the generated validator says", async () => {
  const { default: validateConfig } = await import("../generated/config_validator.js");
  equal(validateConfig({}), true);
  deepEqual(await configProblems({}), []);
  equal((await configProblems({ no_such_key: 1 })).length, 1);
  equal((await configProblems([])).length > 0, true);
});

Deno.test("parseConfigText() accepts comments and trailing commas", async () => {
  deepEqual(await parseConfigText('{\n // c\n "fail_on": "medium",\n}', "x.json"), {
    fail_on: "medium",
  });
});

Deno.test("parseConfigText() names the key path of a schema problem", async (t) => {
  const cases: [string, RegExp][] = [
    [
      '{"gates":{"pre_push":{"on_error":"maybe"}}}',
      /"gates\.pre_push\.on_error" must be one of "allow", "block"/,
    ],
    ['{"fail_on":"urgent"}', /"fail_on" must be one of "critical", "high", "medium", "low"/],
    ['{"providr":"codex"}', /unknown key "providr"/],
    [
      '{"gates":{"claude_stop":{"max_blocks":1.5}}}',
      /"gates\.claude_stop\.max_blocks" must be a whole number/,
    ],
    ['{"min_confidence":2}', /"min_confidence" must be <= 1/],
    ['{"max_turns":1e300}', /"max_turns" must be <= 200/],
    ['{"timeout_seconds":86401}', /"timeout_seconds" must be <= 86400/],
    ['{"budgets":{"file_bytes":67108865}}', /"budgets\.file_bytes" must be <= 67108864/],
    ['{"budgets":{"total_bytes":1e12}}', /"budgets\.total_bytes" must be <= 67108864/],
    [
      '{"gates":{"claude_stop":{"max_blocks":21}}}',
      /"gates\.claude_stop\.max_blocks" must be <= 20/,
    ],
    [
      '{"gates":{"claude_stop":{"timeout_seconds":1e9}}}',
      /"gates\.claude_stop\.timeout_seconds" must be <= 86400/,
    ],
    [
      '{"gates":{"pre_push":{"max_commits":10001}}}',
      /"gates\.pre_push\.max_commits" must be <= 10000/,
    ],
  ];
  for (const [text, pattern] of cases) {
    await t.step(text, async () => {
      await rejects(parseConfigText(text, "/r/.review-gate.json"), (e: Error) => {
        equal(e instanceof ConfigError, true);
        equal(e.message.includes('"/r/.review-gate.json"'), true, e.message);
        return pattern.test(e.message);
      });
    });
  }
});

Deno.test("parseConfigText() drops a leading UTF-8 byte order mark", async () => {
  deepEqual(await parseConfigText('\uFEFF{"fail_on": "low"}', "bom.json"), { fail_on: "low" });
  deepEqual(await parseConfigText('\uFEFF{\n // c\n "fail_on": "low",\n}', "bom.json"), {
    fail_on: "low",
  });
  deepEqual(await parseConfigText("\uFEFF", "bom.json"), {});
});

Deno.test("envLayer() refuses REVIEW_GATE_MAX_TURNS past the schema maximum", async () => {
  await rejects(envLayer({ REVIEW_GATE_MAX_TURNS: "1e300" }), /REVIEW_GATE_MAX_TURNS.*<= 200/);
});

Deno.test("parseConfigText() says what is wrong in words, with the file, line and column", async () => {
  await rejects(parseConfigText('{\n  "fail_on": high\n}', "c.json"), /line 2, column 14/);
  const cases: [string, string][] = [
    [
      '{\n  "fail_on": "high"\n',
      'Invalid config "c.json": line 3, column 1: expected "}" to close an object, found the end of the file. Fix the file (JSON; comments and trailing commas are allowed)',
    ],
    [
      '{"fail_on" "high"}',
      'line 1, column 12: expected ":" after the key, found the string "high".',
    ],
    [
      '{"a": 1,, }',
      'line 1, column 9: expected a key in double quotes (or a "}" closing the object), found ",".',
    ],
    [
      "{fail_on: 1}",
      'line 1, column 2: unexpected text (keys and strings need double quotes; a value is a "string", a number, true, false, null, {…} or […]), found "fail_on".',
    ],
    ['{"a": [1 2]}', 'line 1, column 10: expected "," between two entries, found "2".'],
    [
      '{"a": "x\ty"}',
      'line 1, column 7: a string holds a control character (such as a tab or a line break): write it as an escape, found the string "x\\ty".',
    ],
    ["/* open", 'line 1, column 1: a /* comment is not closed with "*/", found "/* open".'],
    ['{"a": "x\x7fy\x1b[2J"}', 'found the string "x\\u007fy\\u001b[2J"'],
  ];
  for (const [text, message] of cases) {
    const error = await parseConfigText(text, "c.json").then(() => null, (e: Error) => e);
    ok(error?.message.includes(message), `${JSON.stringify(text)}: ${error?.message}`);
    ok(!/Expected|Invalid[A-Z]|Unexpected[A-Z]/.test(error?.message ?? ""), "no parser code names");
  }
});

Deno.test("envLayer() reads typed values and names the variable on a bad one", async () => {
  deepEqual(
    await envLayer({
      REVIEW_GATE_FAIL_ON: "low",
      REVIEW_GATE_CACHE: "0",
      REVIEW_GATE_MAX_TURNS: "4",
    }),
    {
      fail_on: "low",
      cache: false,
      max_turns: 4,
    },
  );
  await rejects(
    envLayer({ REVIEW_GATE_PROVIDER: "gpt" }),
    /REVIEW_GATE_PROVIDER="gpt".*"provider" must be one of/,
  );
  await rejects(
    envLayer({ REVIEW_GATE_TIMEOUT_SECONDS: "soon" }),
    /REVIEW_GATE_TIMEOUT_SECONDS="soon": expected a number/,
  );
});

Deno.test("mergeLayers() deep-merges objects and keeps defaults untouched", () => {
  const merged = mergeLayers(DEFAULT_CONFIG, { gates: { pre_push: { on_error: "block" } } });
  equal(merged.gates.pre_push.on_error, "block");
  equal(merged.gates.pre_push.enabled, true);
  equal(DEFAULT_CONFIG.gates.pre_push.on_error, "allow");
});

Deno.test("loadConfig() applies flags > env > repo > user > defaults", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const root = join(dir, "repo");
    const xdg = join(dir, "xdg");
    await Deno.mkdir(join(xdg, "review-gate"), { recursive: true });
    await Deno.mkdir(root);
    await Deno.writeTextFile(
      join(xdg, "review-gate", "config.json"),
      '{"fail_on":"low","max_turns":3,"model":"u"}',
    );
    await Deno.writeTextFile(join(root, ".review-gate.json"), '{"fail_on":"medium","max_turns":5}');
    const { config, sources } = await loadConfig({
      root,
      env: { XDG_CONFIG_HOME: xdg, REVIEW_GATE_MAX_TURNS: "7" },
      flags: { model: "flag" },
    });
    equal(config.fail_on, "medium");
    equal(config.max_turns, 7);
    equal(config.model, "flag");
    equal(sources.length, 2);
    await Deno.writeTextFile(join(root, ".review-gate.json"), '{"fail_on":42}');
    await rejects(
      loadConfig({ root, env: {} }),
      /Invalid config ".*\.review-gate\.json": "fail_on" must be a string/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseConfigText() suggests the known key near an unknown one, at its place or elsewhere", async () => {
  const message = await parseConfigText(
    JSON.stringify({
      fail_onn: "high",
      budgets: { total_byte: 5 },
      on_eror: "allow",
      gates: { pre_push: { Enabled: true } },
      xyzzy: 1,
    }),
    "c.json",
  ).then(() => "", (e: Error) => e.message);
  for (
    const part of [
      'unknown key "fail_onn" (did you mean "fail_on"?)',
      'unknown key "budgets.total_byte" (did you mean "budgets.total_bytes"?)',
      'unknown key "on_eror" (did you mean one of "gates.pre_push.on_error", "gates.claude_stop.on_error", "gates.codex_stop.on_error"?)',
      'unknown key "gates.pre_push.Enabled" (did you mean "gates.pre_push.enabled"?)',
      'unknown key "xyzzy";',
    ]
  ) ok(message.includes(part), `${part} in: ${message}`);
  ok(message.startsWith('Invalid config "c.json": '), message);
});
