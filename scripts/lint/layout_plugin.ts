/**
 * Project lint rules, run by `deno lint` (deno.json `lint.plugins`):
 * `review-gate/max-function-lines` — no function in lib/, fixtures/, scripts/ or main.ts spans more
 * than {@linkcode MAX_FUNCTION_LINES} lines, counted from its first to its last line (a long
 * function is several ideas: name them). Test files are exempt (one test may walk a whole scenario).
 * `review-gate/no-default-locale-compare` — no `localeCompare` without a locale, and no
 * `Intl.Collator` without one, in lib/, fixtures/, scripts/, bench/ or main.ts: the default locale
 * is the machine's, so an order that is written or shown would change from one machine to the next
 * (lib/base/compare.ts orders by code units).
 *
 * @module
 */

/** Longest function allowed, in lines. */
export const MAX_FUNCTION_LINES = 80;

const CHECKED = /\/(lib|fixtures|scripts)\/|\/main\.ts$/;
const ORDERED = /\/(lib|fixtures|scripts|bench)\/|\/main\.ts$/;
const EXEMPT = /_test\.ts$|\/lib\/generated\//;

const plugin: Deno.lint.Plugin = {
  name: "review-gate",
  rules: {
    "max-function-lines": {
      create(context) {
        if (!CHECKED.test(context.filename) || EXEMPT.test(context.filename)) return {};
        const text = context.sourceCode.text;
        const lineOf = (offset: number) => {
          let line = 1;
          for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
          return line;
        };
        const check = (
          node:
            | Deno.lint.FunctionDeclaration
            | Deno.lint.FunctionExpression
            | Deno.lint.ArrowFunctionExpression,
        ) => {
          const lines = lineOf(node.range[1]) - lineOf(node.range[0]) + 1;
          if (lines > MAX_FUNCTION_LINES) {
            context.report({
              node,
              message: `This function is ${lines} lines long (at most ${MAX_FUNCTION_LINES})`,
              hint: "Split it into functions that each do one named thing.",
            });
          }
        };
        return {
          FunctionDeclaration: check,
          FunctionExpression: check,
          ArrowFunctionExpression: check,
        };
      },
    },
    "no-default-locale-compare": {
      create(context) {
        if (!ORDERED.test(context.filename) || /\/lib\/generated\//.test(context.filename)) {
          return {};
        }
        const hint = "Order by code units (lib/base/compare.ts) or pass a locale.";
        return {
          CallExpression(node) {
            const callee = node.callee;
            if (
              callee.type === "MemberExpression" && callee.property.type === "Identifier" &&
              callee.property.name === "localeCompare" && node.arguments.length < 2
            ) {
              context.report({ node, message: "localeCompare with the machine's locale", hint });
            }
          },
          NewExpression(node) {
            const callee = node.callee;
            if (
              callee.type === "MemberExpression" && callee.property.type === "Identifier" &&
              callee.property.name === "Collator" && node.arguments.length === 0
            ) {
              context.report({ node, message: "Intl.Collator with the machine's locale", hint });
            }
          },
        };
      },
    },
  },
};

export default plugin;
