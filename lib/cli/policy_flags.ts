/**
 * The policy flags every command that decides shares: `--fail-on SEVERITY` and
 * `--min-confidence 0..1` (config keys `fail_on`, `min_confidence`; flags win over every layer).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { ConfigLayer } from "../config/config.ts";
import { SEVERITIES } from "../kinds/review/types.ts";

/** The parser's definitions of `--fail-on <severity>` (with its choices) and `--min-confidence <0..1>`. */
export const POLICY_FLAGS = {
  failOn: {
    kind: "enum",
    values: SEVERITIES,
    optional: true,
    placeholder: "severity",
    brief: "lowest severity that blocks",
  },
  minConfidence: {
    kind: "parsed",
    parse: String,
    optional: true,
    placeholder: "0..1",
    brief: "lowest confidence of a blocking finding",
  },
} as const;

/**
 * The config layer the policy flags give.
 *
 * @param flags the parsed `failOn` and `minConfidence` values
 * @throws {UsageError} for a confidence that is not a number from 0 to 1
 */
export function policyFlagLayer(flags: { failOn?: string; minConfidence?: string }): ConfigLayer {
  const layer: ConfigLayer = {};
  if (flags.failOn !== undefined) layer.fail_on = flags.failOn;
  if (flags.minConfidence !== undefined) {
    const value = Number(flags.minConfidence);
    if (flags.minConfidence.trim() === "" || !(value >= 0 && value <= 1)) {
      throw new UsageError(
        `Invalid --min-confidence "${flags.minConfidence}": give a number from 0 to 1`,
      );
    }
    layer.min_confidence = value;
  }
  return layer;
}
