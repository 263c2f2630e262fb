/**
 * The provider columns of an eval (docs/eval.md "The command"): who reviews every case, one column
 * each in the reports. `--provider P` is one column; `--providers a,b` is one column per entry,
 * reviewed separately and shown side by side — an entry is a provider (`claude`), a provider with
 * its model (`codex:gpt-5`) or a council (`claude+codex`: the same plan to both, as
 * `review --providers claude,codex` sends it). With neither, the config decides, as for `review`.
 * Each column is a config layer over the flags' (lib/config/config.ts precedence: flags win).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { ConfigLayer } from "../config/config.ts";
import { PROVIDER_NAMES, type ProviderName } from "../providers/registry.ts";

/** One column: its label and the config it reviews with. */
export interface Column {
  /** As the reports name it: `claude`, `codex:gpt-5`, `claude+codex`; absent: the config's choice. */
  label?: string;
  /** The config keys the column sets (`provider`, `model`, `council`). */
  layer: ConfigLayer;
}

/** A provider name, or a usage error naming the entry. */
function providerName(name: string, entry: string): ProviderName {
  if (!(PROVIDER_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(
      `Invalid --providers entry "${entry}": "${name}" is not a provider (${
        PROVIDER_NAMES.join(", ")
      })`,
    );
  }
  return name as ProviderName;
}

/** One `--providers` entry as a column. */
function columnOf(entry: string, model: string | undefined): Column {
  if (entry.includes("+")) {
    const names = entry.split("+").map((n) => providerName(n.trim(), entry));
    if (new Set(names).size !== names.length || names.length > 3) {
      throw new UsageError(
        `Invalid --providers entry "${entry}": a council is two or three distinct providers`,
      );
    }
    if (model !== undefined) {
      throw new UsageError(`Invalid --providers entry "${entry}": a council takes no model`);
    }
    return { label: names.join("+"), layer: { provider: names[0], council: names } };
  }
  const [name, ...rest] = entry.split(":");
  const own = rest.length > 0 ? rest.join(":").trim() : undefined;
  if (own === "") throw new UsageError(`Invalid --providers entry "${entry}": the model is empty`);
  const provider = providerName(name.trim(), entry);
  const chosen = own ?? model;
  return {
    label: chosen === undefined ? provider : `${provider}:${chosen}`,
    layer: { provider, council: [], ...(chosen !== undefined ? { model: chosen } : {}) },
  };
}

/**
 * The columns the flags ask for.
 *
 * @param flags `--provider`, `--providers` and `--model` as given
 * @returns at least one column, labels distinct
 * @throws {UsageError} both provider flags, an unknown provider, an empty or repeated entry, a
 *   council with a model, or `--model` with several entries (give each its own `name:model`)
 * @example
 * ```ts
 * import { evalColumns } from "./columns.ts";
 * evalColumns({ providers: "claude,codex:gpt-5,claude+codex" }).map((c) => c.label);
 * // ["claude", "codex:gpt-5", "claude+codex"]
 * ```
 */
export function evalColumns(
  flags: { provider?: string; providers?: string; model?: string },
): Column[] {
  if (flags.provider !== undefined && flags.providers !== undefined) {
    throw new UsageError("Choose --provider or --providers, not both");
  }
  if (flags.providers === undefined) {
    if (flags.provider === undefined) {
      return [{ layer: flags.model !== undefined ? { model: flags.model } : {} }];
    }
    return [columnOf(flags.provider, flags.model)];
  }
  const entries = flags.providers.split(",").map((e) => e.trim());
  if (entries.some((e) => e === "")) {
    throw new UsageError(`Invalid --providers "${flags.providers}": an entry is empty`);
  }
  if (flags.model !== undefined && entries.length > 1) {
    throw new UsageError(
      `--model applies to one provider: give each of --providers its own model as name:model (e.g. "claude:opus,codex:gpt-5")`,
    );
  }
  const columns = entries.map((entry) => columnOf(entry, flags.model));
  const labels = columns.map((c) => c.label);
  if (new Set(labels).size !== labels.length) {
    throw new UsageError(`Invalid --providers "${flags.providers}": an entry is repeated`);
  }
  return columns;
}
