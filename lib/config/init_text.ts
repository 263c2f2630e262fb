/**
 * The text `review-gate init` writes to `.review-gate.json` (pure): JSON with comments, its
 * `$schema` the config schema's own `$id` (schemas/config.schema.json; README "Configuration":
 * point your editor at it), the provider set, and the keys a team changes first written out as
 * comments holding their defaults — uncommented as they stand they change nothing, so the file
 * never pins a default that a later version may improve. Every value shown comes from
 * {@linkcode DEFAULT_CONFIG}, and the providers listed from the registry (lib/providers/registry.ts).
 *
 * @module
 */
import schema from "../../schemas/config.schema.json" with { type: "json" };
import { PROVIDER_NAMES, type ProviderSetting } from "../providers/registry.ts";
import { DEFAULT_CONFIG } from "./config.ts";

/** The `$schema` an initialised config names: the config schema's `$id`. */
export const CONFIG_SCHEMA_ID: string = schema.$id;

/** A value as JSON on one line (`["bug", "security"]`, `"high"`). */
const v = (value: unknown) => JSON.stringify(value).replace(/,(?=["\d{[tf])/g, ", ");

/**
 * The commented config.
 *
 * @param provider the provider to set (default: {@linkcode DEFAULT_CONFIG}'s)
 * @returns JSONC text ending in a newline
 */
export function initConfigText(provider: ProviderSetting = DEFAULT_CONFIG.provider): string {
  const d = DEFAULT_CONFIG;
  const push = d.gates.pre_push;
  const stop = d.gates.claude_stop;
  return `// review-gate configuration (JSON with comments). Every key is optional; the commented lines
// hold the defaults: remove the "//" to change one. All keys: review-gate schema config
{
  "$schema": ${v(CONFIG_SCHEMA_ID)},

  // which coding-agent CLI reviews the change: "auto" (the first installed and signed in, in
  // this order) | ${PROVIDER_NAMES.join(" | ")}
  "provider": ${v(provider)},
  // "model": "…", // the provider's own default when absent

  // which findings block: severity at or above fail_on (critical | high | medium | low), with at
  // least min_confidence, in one of the categories; pre-existing findings never block by default
  // "fail_on": ${v(d.fail_on)},
  // "min_confidence": ${v(d.min_confidence)},
  // "categories": ${v(d.categories)},
  // "block_on_preexisting": ${v(d.block_on_preexisting)},

  // guidance sent with every change (REVIEW.md files are read too), and paths left out by rule
  // "instructions": "Check error handling on every I/O call.",
  // "exclude": ${v(d.exclude)}, // globs, on top of the default excludes (lockfiles, dist/, …)

  // a larger change is reviewed in up to max_calls parts, jobs of them at once
  // "max_calls": ${v(d.max_calls)},
  // "jobs": ${v(d.jobs)},

  // the gates "review-gate install" puts in front of git push and agent turns; mode: "warn" only
  // says what a gate would block and lets the work through (warn first, block later); on_error:
  // what an infrastructure failure does (allow | block); on_partial: a review that saw part of it
  // "gates": {
  //   "pre_push": { "enabled": ${v(push.enabled)}, "mode": ${v(push.mode)}, "on_error": ${
    v(push.on_error)
  }, "on_partial": ${v(push.on_partial)} },
  //   "claude_stop": { "enabled": ${v(stop.enabled)}, "mode": ${v(stop.mode)}, "on_error": ${
    v(stop.on_error)
  }, "max_blocks": ${v(stop.max_blocks)} }
  // }
}
`;
}
