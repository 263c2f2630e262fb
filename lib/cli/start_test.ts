/**
 * What a start loads before any command runs: the modules reachable by static imports (those
 * behind `await import()` load when it runs: deno.json's lazy dynamic imports). Node compatibility
 * costs tens of milliseconds the first time a `node:` module or a CommonJS package loads, so
 * neither the hooks' fast path (main.ts) nor the command line (lib/cli/app.ts: every command's
 * definition, help and `--version`) may reach one statically.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** `deno info --json main.ts`: every module of the program, with its dependencies. */
async function moduleGraph(): Promise<
  { modules: InfoModule[]; redirects: Record<string, string> }
> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", MAIN],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The specifiers reachable from `root` by static imports (type-only imports load nothing). */
function staticClosure(
  graph: { modules: InfoModule[]; redirects: Record<string, string> },
  root: string,
): Set<string> {
  const byUrl = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    const url = graph.redirects[specifier] ?? specifier;
    if (seen.has(url)) return;
    seen.add(url);
    for (const dep of byUrl.get(url)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) visit(dep.code.specifier);
    }
  };
  visit(root);
  return seen;
}

Deno.test("a start loads no Node-compat module: neither the hooks' fast path nor the command line", async () => {
  const graph = await moduleGraph();
  const main = new URL("../../main.ts", import.meta.url).href;
  const app = new URL("./app.ts", import.meta.url).href;
  const fastPath = staticClosure(graph, main);
  assert.ok(!fastPath.has(app), "main.ts loads the command line only when it is used");
  const outside = (set: Set<string>) => [...set].filter((s) => !s.startsWith("file:"));
  assert.deepEqual(outside(fastPath), [], "main.ts (the hooks' fast path) reaches only our files");
  assert.deepEqual(
    outside(staticClosure(graph, app)),
    ["npm:/@stricli/core@1.3.0"],
    "the command line reaches only its parser (plain ES modules) besides our files",
  );
});
