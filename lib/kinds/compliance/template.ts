/**
 * The compliance prompt's template: what a verdict's identity hashes (lib/review/identity.ts
 * `templateHash`), apart from the prompt builder (lib/kinds/compliance/prompt.ts) so a cache hit
 * hashes it without loading the builder (docs/design.md "Performance notes").
 *
 * @module
 */
import complianceTemplate from "../../../prompts/compliance.txt" with { type: "text" };

/** The template text (its hash is part of the verdict's identity). */
export const COMPLIANCE_TEMPLATE: string = complianceTemplate;
