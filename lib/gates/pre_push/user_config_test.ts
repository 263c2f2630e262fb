import assert from "node:assert/strict";
import { ConfigError } from "../../base/errors.ts";
import { type Config, loadConfig } from "../../config/config.ts";
import { loadWithUserConfig, type PushUserConfig, type UserText } from "./user_config.ts";

const START: UserText = {
  text: JSON.stringify({ gates: { pre_push: { on_error: "block" } }, fail_on: "critical" }),
  source: "start",
};
const NOW_TEXT = JSON.stringify({
  exclude: ["src/**"],
  fail_on: "low",
  gates: { pre_push: { enabled: false, on_error: "allow" } },
});

/** Loads `userText`, with `undefined` standing for the file now (here: {@linkcode NOW_TEXT}). */
async function load(userText: UserText): Promise<Config> {
  const text = userText === undefined ? { text: NOW_TEXT, source: "now" } : userText;
  return (await loadConfig({ env: {}, userText: text })).config;
}

Deno.test("loadWithUserConfig(): held back, the turn's start applies and the file now only where stricter", async () => {
  const user: PushUserConfig = { kind: "held", base: START, stricter: [undefined], why: "" };
  const { config, ignored } = await loadWithUserConfig(user, load);
  assert.deepEqual(config.exclude, []);
  assert.equal(config.gates.pre_push.enabled, true);
  assert.equal(config.gates.pre_push.on_error, "block");
  assert.equal(config.fail_on, "low", "the stricter fail_on of the file now applies");
  assert.deepEqual(ignored.sort(), [
    "exclude",
    "gates.pre_push.enabled",
    "gates.pre_push.on_error",
  ]);
});

Deno.test("loadWithUserConfig(): with no start known, the defaults apply and the file only where stricter", async () => {
  const user: PushUserConfig = { kind: "held", base: null, stricter: [undefined], why: "" };
  const { config } = await loadWithUserConfig(user, load);
  assert.deepEqual(config.exclude, []);
  assert.equal(config.gates.pre_push.enabled, true);
  assert.equal(config.gates.pre_push.on_error, "allow");
  assert.equal(config.fail_on, "low");
});

Deno.test("loadWithUserConfig(): an invalid file now is ignored and said; `file` loads it as is", async () => {
  const invalid = async (userText: UserText) => {
    if (userText === undefined) throw new ConfigError("Invalid config: fail_on");
    return await load(userText);
  };
  const held: PushUserConfig = { kind: "held", base: START, stricter: [undefined], why: "" };
  const { config, ignored } = await loadWithUserConfig(held, invalid);
  assert.equal(config.fail_on, "critical");
  assert.deepEqual(ignored, ["(invalid: Invalid config: fail_on)"]);
  await assert.rejects(() => loadWithUserConfig({ kind: "file" }, invalid), ConfigError);
  assert.deepEqual((await loadWithUserConfig({ kind: "file" }, load)).config.exclude, ["src/**"]);
});
