/**
 * The ajv options every answer schema is compiled with — at build time into the standalone
 * validators (scripts/gen_validators.ts) and at run time by lib/answer/validate.ts — so both give
 * the same errors: Draft 2020-12 strict mode, every error (not only the first), each carrying the
 * offending value (`verbose`, which the refusal text quotes).
 *
 * @module
 */

/** Options for `new Ajv2020(…)` besides code generation. */
export const ANSWER_AJV_OPTIONS = Object.freeze(
  {
    strict: true,
    allErrors: true,
    verbose: true,
  } as const,
);
