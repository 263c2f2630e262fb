/**
 * The house rules of the source tree, checked on every test run: no import circle anywhere
 * (lib/, main.ts, fixtures/, bench/, scripts/, test/), and in lib/ imports run one way, down the
 * rooms in {@linkcode ROOMS} — a room imports only rooms listed before it (test files may reach
 * anything); lib/config/ imports no answer kind (lib/kinds/): the words the two share live in
 * lib/vocabulary/; and the review pipeline knows no answer kind: lib/review/ reaches lib/kinds/
 * only through {@linkcode KIND_CONTRACT}. The README's Development section shows the same map.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";

/** lib/'s rooms, lowest first. Rooms on one line are siblings: neither imports the other. */
const ROOMS: readonly (readonly string[])[] = [
  ["generated", "base"],
  ["exec"],
  ["answer"],
  ["providers"],
  ["git"],
  ["vocabulary"],
  ["kinds"],
  ["config"],
  ["acks", "rules"],
  ["session"],
  ["store"],
  ["formats"],
  ["review"],
  ["gates", "install", "jobs", "ci", "eval"],
  ["cli"],
];

/**
 * What of lib/kinds/ the review pipeline (lib/review/) may import: the registry (a kind by name),
 * the definition (what every kind offers the pipeline, and the vocabulary its methods are typed
 * with), and the kinds' names (a list, no kind's code). Anything a kind decides — its policy,
 * findings, merges, prompts — the pipeline asks its definition for.
 */
const KIND_CONTRACT: readonly string[] = [
  "lib/kinds/registry.ts",
  "lib/kinds/definition.ts",
  "lib/kinds/names.ts",
];

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));
const SPECIFIER =
  /^\s*(?:import|export)\s[^;]*?\bfrom\s*["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)|^\s*import\s*["'](\.[^"']+)["']/gm;

/** Every .ts/.js file under the given repo-relative roots, repo-relative. */
function sources(roots: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const info = Deno.statSync(join(ROOT, path));
    if (info.isFile) {
      if (/\.(ts|js)$/.test(path)) out.push(path);
      return;
    }
    for (const entry of Deno.readDirSync(join(ROOT, path))) {
      if (entry.name.startsWith(".")) continue;
      walk(join(path, entry.name));
    }
  };
  for (const root of roots) walk(root);
  return out;
}

/** file → the repo files it imports (relative specifiers of code and JSDoc examples alike). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = Deno.readTextFileSync(join(ROOT, file));
    const targets = [...text.matchAll(SPECIFIER)]
      .map((m) => m[1] ?? m[2] ?? m[3])
      .filter((spec) => /\.(ts|js)$/.test(spec))
      .map((spec) => normalize(join(dirname(file), spec)))
      .filter((target) => target !== file); // a doc example importing its own module
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function roomOf(file: string): string | null {
  const parts = relative("lib", file).split("/");
  return parts.length > 1 ? parts[0] : null;
}

Deno.test("no import circle anywhere in the source tree", () => {
  const graph = importGraph(
    sources(["main.ts", "lib", "fixtures", "bench", "scripts", "test"]),
  );
  assert.ok(graph.size > 100);
  assert.deepEqual(circles(graph), []);
});

Deno.test("lib/ imports run one way, down the rooms", () => {
  const rank = new Map(ROOMS.flatMap((line, i) => line.map((room) => [room, i] as const)));
  const files = sources(["lib"]).filter((f) => !/(_test|\/_testing)\.ts$/.test(f));
  const problems: string[] = [];
  for (const [file, targets] of importGraph(files)) {
    const from = roomOf(file);
    if (from === null) continue;
    if (!rank.has(from)) problems.push(`${file}: room "${from}" is not in ROOMS`);
    for (const target of targets) {
      const to = roomOf(target);
      if (to === null || to === from) continue;
      if (!((rank.get(to) ?? Infinity) < (rank.get(from) ?? -1))) {
        problems.push(`${file} imports ${target}: "${from}" may not import "${to}"`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("lib/config/ imports nothing from lib/kinds/: the words they share are in lib/vocabulary/", () => {
  const files = sources(["lib/config"]).filter((f) => !/(_test|\/_testing)\.ts$/.test(f));
  assert.ok(files.includes("lib/config/config.ts"));
  const problems = [...importGraph(files)].flatMap(([file, targets]) =>
    targets.filter((target) => roomOf(target) === "kinds").map((target) =>
      `${file} imports ${target}`
    )
  );
  assert.deepEqual(problems, []);
});

Deno.test("lib/review/ imports of lib/kinds/ are the kind registry, definition and names only", () => {
  const files = sources(["lib/review"]).filter((f) => !/(_test|\/_testing)\.ts$/.test(f));
  assert.ok(files.includes("lib/review/run_review.ts"));
  const problems: string[] = [];
  for (const [file, targets] of importGraph(files)) {
    for (const target of targets) {
      if (roomOf(target) === "kinds" && !KIND_CONTRACT.includes(target)) {
        problems.push(`${file} imports ${target}: ask the kind's definition instead`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("product code outside lib/install/ imports none of the node: modules that start Node compatibility", () => {
  // docs/design.md "Performance notes": node:path, node:util, node:buffer and node:timers start
  // Deno's Node compatibility layer (~10–20 ms of every run); test/e2e/node_compat_test.ts checks
  // the review path at run time, this checks every file, including the providers a fake never uses
  const slow = /\bfrom\s*["']node:(path|util|buffer|timers)(\/[a-z]+)?["']/;
  const offenders = sources(["lib", "main.ts"]).filter((file) =>
    !/_test\.ts$/.test(file) && !file.startsWith("lib/install/") &&
    slow.test(Deno.readTextFileSync(join(ROOT, file)))
  );
  assert.deepEqual(offenders, []);
});
