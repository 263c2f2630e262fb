import assert from "node:assert/strict";
import { join } from "node:path";
import { type Runner, runProcess } from "../exec/exec.ts";
import { ExitCode, ReviewGateError } from "../base/errors.ts";
import { makeRepo } from "../git/_testing.ts";
import type { Command, RouteMap } from "@stricli/core";
import { program, renderJsonError, run, wantsJsonErrors } from "./app.ts";
import { type CliContext, flagName } from "./command.ts";
import type { CliDeps } from "./deps.ts";

const ESCAPES = "\u001b]0;T\u0007\u001b[2J";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

function deps(
  options: { cwd?: string; runner?: Runner; env?: Record<string, string> } = {},
): CliDeps & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    cwd: options.cwd ?? Deno.cwd(),
    env: { HOME: "/nonexistent", XDG_CONFIG_HOME: "/nonexistent", ...options.env },
    stdout: { isTerminal: false, write: (t) => void out.push(t) },
    stderr: { isTerminal: false, write: (t) => void err.push(t) },
    readStdin: () => Promise.resolve(new Uint8Array()),
    runner: options.runner ?? runProcess,
    now: () => new Date(),
    signal: new AbortController().signal,
    self: { execPath: Deno.execPath() },
  };
}

/** stdout parsed as the error envelope (throws when stdout is not exactly one JSON value). */
function envelope(out: string[]): Record<string, unknown> {
  return JSON.parse(out.join(""));
}

Deno.test("wantsJsonErrors() is true only for review/decode with JSON on stdout before --", () => {
  const cases: [string[], boolean][] = [
    [["review", "--json"], true],
    [["review", "--format", "json"], true],
    [["review", "--format=json"], true],
    [["review", "--format", "json", "--output", "r.json"], false],
    [["review", "--format", "sarif"], false],
    [["decode", "-", "--json"], true],
    [["review", "--staged"], false],
    [["doctor", "--json"], false],
    [["review", "--", "--json"], false],
  ];
  for (const [args, expected] of cases) {
    assert.equal(wantsJsonErrors(args), expected, args.join(" "));
  }
  assert.deepEqual(JSON.parse(renderJsonError(2, "m")), {
    status: "error",
    exitCode: 2,
    message: "m",
  });
});

Deno.test("run() prints a JSON error envelope on stdout for exit-2 errors of review and decode --json", async (t) => {
  const outside = await Deno.makeTempDir({ prefix: "rg-app-" });
  try {
    const cases: [string, string[], RegExp, string?][] = [
      ["flag conflict", ["review", "--json", "--staged", "--base", "main"], /Choose one target/],
      ["unknown flag", ["review", "--json", "--bogus"], /No flag registered for --bogus/],
      ["bad choice", ["review", "--json", "--fail-on", "huge"], /huge/],
      [
        "unreadable answer file",
        ["decode", join(outside, "missing.json"), "--json"],
        /Cannot read/,
      ],
      ["not a repository", ["review", "--json"], /repositor/i, outside],
    ];
    for (const [name, args, message, cwd] of cases) {
      await t.step(name, async () => {
        const d = deps({ cwd });
        const code = await run(args, d);
        assert.equal(code, 2, d.err.join(""));
        const json = envelope(d.out);
        assert.equal(json.status, "error");
        assert.equal(json.exitCode, 2);
        assert.match(String(json.message), message);
        assert.match(d.err.join(""), message, "the human message stays on stderr");
      });
    }
    await t.step("without --json stdout stays empty", async () => {
      const d = deps();
      assert.equal(await run(["review", "--staged", "--base", "main"], d), 2);
      assert.deepEqual(d.out, []);
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("run() prints the JSON error envelope with exit 3 for an internal error before a run exists", async () => {
  const d = deps({ runner: () => Promise.reject(new Error(`boom ${ESCAPES}`)) });
  const code = await run(["review", "--json"], d);
  assert.equal(code, 3);
  const json = envelope(d.out);
  assert.deepEqual([json.status, json.exitCode], ["error", 3]);
  assert.match(String(json.message), /internal error: boom/);
  assert.doesNotMatch(String(json.message), RAW_CONTROL);
  assert.doesNotMatch(d.err.join(""), RAW_CONTROL);
});

Deno.test("run() neutralises escape sequences of a config key in the error it prints", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    await Deno.writeTextFile(
      join(repo, ".review-gate.json"),
      JSON.stringify({ [`key${ESCAPES}`]: 1 }),
    );
    for (const args of [["review"], ["review", "--json"]]) {
      const d = deps({ cwd: repo });
      const code = await run(args, d);
      assert.equal(code, 2, d.err.join(""));
      const stderr = d.err.join("");
      assert.match(stderr, /key\\u\{1b\}\]0;T\\u\{7\}/, stderr);
      assert.doesNotMatch(stderr, RAW_CONTROL);
      if (args.includes("--json")) assert.equal(envelope(d.out).exitCode, 2);
    }
  } finally {
    await cleanup();
  }
});

/** Every command of the program with its path (`["hook", "pre-push"]`) and definition. */
function allCommands(
  target: Command<CliContext> | RouteMap<CliContext>,
  path: string[] = [],
): { path: string[]; command: Command<CliContext> }[] {
  if (!("getAllEntries" in target)) return [{ path, command: target }];
  return target.getAllEntries().flatMap((entry) =>
    allCommands(entry.target, [...path, entry.name.original])
  );
}

/** True when `text` has `word` as a whole word (not inside a longer flag). */
function hasWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s\\[/(])${escaped}(?=[\\s\\]/)]|$)`, "m").test(text);
}

Deno.test("help of every command lists each flag, argument and subcommand its definition has", async (t) => {
  const commands = allCommands((await program()).root);
  assert.ok(commands.length >= 20, `found ${commands.length} commands`);
  for (const { path, command } of commands) {
    await t.step(path.join(" "), async () => {
      const d = deps();
      assert.equal(await run([...path, "--help"], d), 0, d.err.join(""));
      const help = d.out.join("");
      const { flags = {}, aliases = {}, positional } = command.parameters;
      for (const [name, flag] of Object.entries(flags)) {
        if (flag.hidden) {
          assert.ok(!hasWord(help, flagName(name)), `${flagName(name)} is hidden`);
          continue;
        }
        assert.ok(hasWord(help, flagName(name)), `${flagName(name)} missing from:\n${help}`);
        assert.ok(help.includes(flag.brief), `${flagName(name)}'s description missing`);
      }
      for (const [alias, name] of Object.entries(aliases)) {
        assert.match(help, new RegExp(`-${alias} \\[${flagName(name as string)}\\]`));
      }
      const args = positional?.kind === "tuple" ? positional.parameters : [];
      for (const arg of args) assert.ok(hasWord(help, arg.placeholder!), arg.placeholder);
    });
  }
  await t.step("groups list their subcommands", async () => {
    for (const group of ["hook", "gate"]) {
      const d = deps();
      assert.equal(await run([group, "--help"], d), 0);
      const names = commands.filter((c) => c.path[0] === group).map((c) => c.path[1]);
      for (const name of names) assert.ok(hasWord(d.out.join(""), name), `${group} ${name}`);
    }
    const d = deps();
    assert.equal(await run(["--help"], d), 0);
    for (const { path } of commands) assert.ok(hasWord(d.out.join(""), path[0]), path[0]);
  });
});

Deno.test("run() fails with exit 3 and the write's message when help or --version cannot be written", async () => {
  for (const args of [["--help"], ["review", "--help"], ["--version"]]) {
    const d = deps();
    d.stdout.write = () => {
      throw new ReviewGateError("Cannot write the output to stdout: full", ExitCode.couldNotRun);
    };
    assert.equal(await run(args, d), 3, args.join(" "));
    assert.equal(d.err.join(""), "review-gate: Cannot write the output to stdout: full\n");
  }
});

Deno.test("a group without its subcommand is a usage error: its help on stderr, exit 2", async () => {
  for (const args of [[], ["hook"], ["gate"]]) {
    const d = deps();
    assert.equal(await run(args, d), 2, args.join(" "));
    assert.deepEqual(d.out, []);
    assert.match(d.err.join(""), /^USAGE\n/);
    assert.match(d.err.join(""), /\nCOMMANDS\n/);
  }
  const asked = deps();
  const named = deps();
  assert.equal(await run(["hook", "pre-push", "--help"], asked), 0);
  assert.equal(await run(["help", "hook", "pre-push"], named), 0);
  assert.equal(named.out.join(""), asked.out.join(""));
  assert.match(asked.out.join(""), /review-gate hook pre-push <remote> \[<url>\]/);
});
