/**
 * The installed hook scripts run git themselves before review-gate starts (`hooks/turn-stop.sh`,
 * and `hooks/pre-push-fast.sh` inside the pre-push stub), so they must harden it exactly as
 * lib/git/git.ts does: every `-c` override of {@linkcode HARDENING_ARGS} and
 * {@linkcode HOOKS_OFF}, in the one wrapper function each script calls git through.
 *
 * @module
 */
import assert from "node:assert/strict";
import { HARDENING_ARGS, HOOKS_OFF } from "./git.ts";

/** Each script and the name of its git wrapper function. */
const SCRIPTS = [
  { file: "hooks/turn-stop.sh", wrapper: "g" },
  { file: "hooks/pre-push-fast.sh", wrapper: "review_gate_git" },
] as const;

/** The `key=value` operands of the `-c` options in a `-c k=v -c k=v …` list. */
function configPairs(args: readonly string[]): string[] {
  return args.filter((_, i) => args[i - 1] === "-c");
}

/** A shell function's body: from `name() {` to the first line that is only `}`. */
function functionBody(script: string, name: string): string | undefined {
  const start = script.search(new RegExp(`^${name}\\(\\) \\{$`, "m"));
  if (start === -1) return undefined;
  const end = script.indexOf("\n}\n", start);
  return script.slice(start, end === -1 ? undefined : end);
}

/** Shell lines (comments dropped) that run `git` as a command. */
function gitCommandLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(/(^|\s)#.*$/, ""))
    .filter((line) => /(^|[\s;|&(`]|\$\()git(\s|$)/.test(line));
}

for (const { file, wrapper } of SCRIPTS) {
  Deno.test(`${file}: its git wrapper passes every hardening override review-gate's git passes`, async () => {
    const script = await Deno.readTextFile(new URL(`../../${file}`, import.meta.url));
    const body = functionBody(script, wrapper);
    assert.ok(body, `${file} defines ${wrapper}()`);
    const passed = new Set([...body.matchAll(/ -c (\S+)/g)].map((m) => m[1]));
    const missing = configPairs([...HARDENING_ARGS, ...HOOKS_OFF]).filter((p) => !passed.has(p));
    assert.deepEqual(missing, [], `${wrapper}() in ${file} lacks these -c overrides`);
  });

  Deno.test(`${file}: every git command goes through ${wrapper}()`, async () => {
    const script = await Deno.readTextFile(new URL(`../../${file}`, import.meta.url));
    const body = functionBody(script, wrapper) ?? "";
    const outside = gitCommandLines(script.replace(body, ""));
    assert.deepEqual(outside, [], `${file} runs git outside ${wrapper}()`);
  });
}

Deno.test("the helpers read -c pairs, function bodies and git command lines", () => {
  assert.deepEqual(configPairs(["-c", "a=1", "x", "-c", "b="]), ["a=1", "b="]);
  const script = 'f() {\n  git -c a=1 "$@"\n}\nx=$(git log) # git here\necho .git\n';
  assert.equal(functionBody(script, "f"), 'f() {\n  git -c a=1 "$@"');
  assert.deepEqual(gitCommandLines(script.replace(functionBody(script, "f")!, "")), [
    "x=$(git log)",
  ]);
});
