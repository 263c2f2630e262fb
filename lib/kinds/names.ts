/**
 * The answer kinds' names, without their definitions: what the command line offers as choices
 * (`decode --kind`, `schema [kind]`) loads this alone. `lib/kinds/registry.ts` maps each name to
 * its definition (the compiler checks that the two agree).
 *
 * @module
 */

/** Names of the answer kinds, in registry order. */
export const KIND_NAMES = ["review", "compliance"] as const;

/** Names of the answer kinds. */
export type KindName = typeof KIND_NAMES[number];
