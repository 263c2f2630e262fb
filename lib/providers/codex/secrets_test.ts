import assert from "node:assert/strict";
import { moveProviderSecrets } from "./secrets.ts";

Deno.test("moveProviderSecrets() turns literal tokens and headers into variables, keeps the rest", () => {
  const carried = {
    model: "m",
    model_providers: {
      gw: {
        name: "gw",
        experimental_bearer_token: "tok",
        http_headers: { "X-A": "a" },
        env_http_headers: { "X-B": "B_VAR" },
      },
      plain: { name: "p", env_key: "P_KEY" },
    },
  };
  const before = structuredClone(carried);
  const moved = moveProviderSecrets(carried);
  assert.deepEqual(carried, before, "the input is not changed");
  assert.deepEqual(moved.carried, {
    model: "m",
    model_providers: {
      gw: {
        name: "gw",
        env_key: "REVIEW_GATE_PROVIDER_SECRET_1",
        env_http_headers: { "X-B": "B_VAR", "X-A": "REVIEW_GATE_PROVIDER_SECRET_2" },
      },
      plain: { name: "p", env_key: "P_KEY" },
    },
  });
  assert.deepEqual(moved.env, {
    REVIEW_GATE_PROVIDER_SECRET_1: "tok",
    REVIEW_GATE_PROVIDER_SECRET_2: "a",
  });
  assert.deepEqual(moveProviderSecrets({ model: "m" }), { carried: { model: "m" }, env: {} });
});
