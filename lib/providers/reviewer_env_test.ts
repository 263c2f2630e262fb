import assert from "node:assert/strict";
import { answerEnvKey, isReviewerVar } from "./reviewer_env.ts";

Deno.test("isReviewerVar() takes the providers' own variables from their meta, and the shared ones", () => {
  const reviewer = [
    "ANTHROPIC_BASE_URL",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_USE_BEDROCK",
    "OPENAI_API_KEY",
    "CODEX_HOME",
    "MISTRAL_API_KEY",
    "VIBE_HOME",
    "AWS_REGION",
    "GOOGLE_CLOUD_PROJECT",
    "CLOUD_ML_REGION",
    "VERTEX_REGION_X",
    "AZURE_API_KEY",
    "HTTPS_PROXY",
    "https_proxy",
    "NO_PROXY",
    "SSL_CERT_FILE",
    "NODE_EXTRA_CA_CERTS",
    "REVIEW_GATE_PROVIDER",
    "REVIEW_GATE_CLAUDE_BIN",
  ];
  for (const name of reviewer) assert.equal(isReviewerVar(name), true, name);
  const other = [
    "PATH",
    "HOME",
    "CLAUDE_CONFIG_DIRX",
    "CLAUDE_CODE_ENTRYPOINT",
    "ANTHROPIC_",
    "REVIEW_GATE_FAKE_SCENARIO",
    "REVIEW_GATE_DEBUG",
    "XANTHROPIC_API_KEY",
  ];
  for (const name of other) assert.equal(isReviewerVar(name), false, name);
});

Deno.test("answerEnvKey() leaves secrets and review-gate's settings out of a verdict's key", async () => {
  const home = await Deno.makeTempDir();
  try {
    const base = { HOME: home, PATH: "/usr/bin" };
    assert.equal(await answerEnvKey(base, "claude"), "");
    assert.equal(await answerEnvKey({ ...base, ANTHROPIC_API_KEY: "k" }, "claude"), "");
    const url = await answerEnvKey({ ...base, ANTHROPIC_BASE_URL: "http://a" }, "claude");
    assert.match(url, /^[0-9a-f]{16}$/);
    assert.notEqual(await answerEnvKey({ ...base, ANTHROPIC_BASE_URL: "http://b" }, "claude"), url);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
