/**
 * How `provider: "auto"` chose a run's provider, as data (the run record's `providerChoice`) and
 * as the words every output adds to the provider's name: "qwen (auto: claude not found, codex not
 * signed in)". Pure and light: the renderers import it (lib/providers/auto.ts chooses).
 *
 * @module
 */
import type { ProviderName } from "./registry.ts";

/** A provider `auto` passed over, and why (`not found`, `not signed in`, …). */
export interface SkippedProvider {
  name: ProviderName;
  why: string;
}

/** How the provider of a run was chosen, when `auto` chose it (the run record's `providerChoice`). */
export interface ProviderChoice {
  auto: true;
  /** The providers tried before the chosen one, in order, each with why it was passed over. */
  skipped: SkippedProvider[];
}

/**
 * The words every output adds to the provider's name.
 *
 * @param choice the run's `providerChoice`
 * @returns e.g. `auto: claude not found, codex not signed in`, or `auto` when the first was chosen
 */
export function choiceText(choice: ProviderChoice): string {
  if (choice.skipped.length === 0) return "auto";
  return `auto: ${choice.skipped.map((s) => `${s.name} ${s.why}`).join(", ")}`;
}

/**
 * A provider's name as outputs show it, with its model when named: `qwen`, `claude sonnet`,
 * `qwen (auto: claude not found)`, `claude sonnet (auto)`.
 *
 * @param provider the provider that reviewed
 * @param choice how `auto` chose it, when it did
 * @param model the model, when one was named
 */
export function providerLabel(provider: string, choice?: ProviderChoice, model?: string): string {
  const who = model ? `${provider} ${model}` : provider;
  return choice ? `${who} (${choiceText(choice)})` : who;
}
