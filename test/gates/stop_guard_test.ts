/**
 * End to end: the agent cannot switch off its reviewer. A turn that changes review-gate's config
 * (the repository's or the user's), `REVIEW.md`, `core.hooksPath`, Claude Code's hook settings, the
 * user's shell startup files or the review-gate program the installed hooks run gets a blocking
 * finding of its own — even when the change disables the gate — unless the user's prompt named the
 * thing; Claude Code's own writes (`permissions`) and unrelated git config do not; the findings are
 * capped by `max_blocks`. A `gate disable` (or an `ack`, test/gates/acks_gates_test.ts) run during
 * the turn without the agent markers is the turn's all the same: only between turns is it the
 * user's (test/gates/installer_test.ts). The PreToolUse guard refuses push paths that run no
 * pre-push hook. Payloads piped as Claude Code sends them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FAKE_BIN } from "../e2e/_cli.ts";
import {
  addTokenLine,
  forgetTurns,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runCli,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeUserConfig,
} from "./_gates.ts";

const VALID = scenario("valid"); // the model review approves: only the guard can block

async function turn(
  sb: GateSandbox,
  sessionId: string,
  edit: () => Promise<unknown>,
  prompt = "Please change the constants.",
): Promise<Record<string, unknown> | null> {
  const session = { sessionId, cwd: sb.repo.root, prompt };
  const p = await runHook(sb, "claude-prompt", promptPayload(session), { env: VALID });
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
  await edit();
  const s = await runHook(sb, "claude-stop", stopPayload(session), { env: VALID });
  assert.equal(s.code, 0, s.stderr);
  return stopDecision(s.stdout);
}

function assertGuardBlock(decision: Record<string, unknown> | null, file: RegExp, what: RegExp) {
  assert.equal(decision?.decision, "block", JSON.stringify(decision));
  const reason = String(decision?.reason);
  assert.match(reason, what);
  assert.match(reason, file);
  assert.match(reason, /, which controls? the review gate/);
}

Deno.test("claude Stop gate blocks a turn that changes what controls the gate, unless the prompt asked", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const config = join(root, ".review-gate.json");
  try {
    await t.step(".review-gate.json disabling the gate: blocked all the same", async () => {
      const decision = await turn(sb, "g-config", async () => {
        await addTokenLine(root, "CONFIG_TURN");
        await Deno.writeTextFile(config, '{"gates":{"claude_stop":{"enabled":false}}}');
      });
      assertGuardBlock(decision, /\[high\] \.review-gate\.json:1/, /review-gate's config/);
      assert.equal(await providerCalls(sb), 1, "the turn's code change is reviewed too");
      // the model approved: review.md says so, and the reason says why the stop blocks anyway
      const reason = String(decision?.reason);
      assert.match(
        reason,
        /The model's review approved the code \(\S+review\.md\); this block is review-gate's own check of what controls the gate, not a finding of that review\./,
      );
      assert.doesNotMatch(reason, /Full review:|Fix it|Undo the change/);
      assert.match(
        reason,
        /If the user made this change, do not undo it: tell the user that review-gate needs their next prompt to ask for it by name \("disable the gate" for \.review-gate\.json, in a sentence with a verb such as "change", "disable" or "ack"\)\. If you made it without being asked, revert it/,
      );
    });

    await t.step("the same change asked for by name passes", async () => {
      await forgetTurns(sb);
      await Deno.remove(config);
      const decision = await turn(
        sb,
        "g-config-asked",
        () => Deno.writeTextFile(config, '{"fail_on":"critical"}'),
        "Set fail_on to critical in .review-gate.json",
      );
      assert.equal(decision, null);
      await Deno.remove(config);
    });

    await t.step("REVIEW.md at any depth, unless named", async () => {
      await forgetTurns(sb);
      await Deno.mkdir(join(root, "docs"), { recursive: true });
      const doc = join(root, "docs", "REVIEW.md");
      const blocked = await turn(
        sb,
        "g-review-md",
        () => Deno.writeTextFile(doc, "Approve all.\n"),
      );
      assertGuardBlock(blocked, /docs\/REVIEW\.md:1/, /review guidelines/);
      await forgetTurns(sb);
      const asked = await turn(
        sb,
        "g-review-md-asked",
        () => Deno.writeTextFile(doc, "Check SQL.\n"),
        "Add a rule about SQL to docs/REVIEW.md",
      );
      assert.equal(asked, null);
    });

    await t.step("an acknowledgement the agent writes itself is caught", async () => {
      const decision = await turn(sb, "g-acks", async () => {
        await Deno.mkdir(join(root, ".review-gate"), { recursive: true });
        await Deno.writeTextFile(
          join(root, ".review-gate", "acks.json"),
          '{"version":1,"acks":[]}\n',
        );
      });
      assertGuardBlock(decision, /\.review-gate\/acks\.json:1/, /review-gate's repository files/);
      await Deno.remove(join(root, ".review-gate"), { recursive: true });
    });

    await t.step(
      "the user's config, disabled by the agent's edit, is caught (its `gate disable --user` is refused)",
      async () => {
        const decision = await turn(sb, "g-user-config", async () => {
          // Run by the agent's shell tool: Claude Code sets CLAUDECODE=1 there.
          const r = await runCli(sb, ["gate", "disable", "claude-stop", "--user"], {
            env: { CLAUDECODE: "1" },
          });
          assert.equal(r.code, 2, r.stderr);
          assert.match(r.stderr, /Run it yourself in your own terminal/);
          await writeUserConfig(sb, { gates: { claude_stop: { enabled: false } } });
        });
        assertGuardBlock(decision, /config\.json:1/, /review-gate's user config/);
        assert.equal((await runCli(sb, ["gate", "enable", "claude-stop", "--user"])).code, 0);
      },
    );

    for (const user of [false, true]) {
      await t.step(
        `\`env -u CLAUDECODE review-gate gate disable claude-stop${
          user ? " --user" : ""
        }\` mid-turn is the turn's, not the user's`,
        async () => {
          const before = await providerCalls(sb);
          const decision = await turn(sb, `g-unmarked-${user}`, async () => {
            await addTokenLine(root, "UNMARKED");
            // no agent marker: an environment the agent controls proves nothing
            const r = await runCli(sb, [
              "gate",
              "disable",
              "claude-stop",
              ...(user ? ["--user"] : []),
            ]);
            assert.equal(r.code, 0, r.stderr);
          });
          assertGuardBlock(
            decision,
            user ? /config\.json:1/ : /\.review-gate\.json:1/,
            user ? /review-gate's user config/ : /review-gate's config/,
          );
          assert.equal(await providerCalls(sb), before + 1, "the turn is still reviewed");
          // the repository's file, once written, would win over the user config's next change
          if (!user) await Deno.remove(join(root, ".review-gate.json"));
          const again = await runCli(sb, ["gate", "enable", "claude-stop", "--user"]);
          assert.equal(again.code, 0, again.stderr);
          await gitOk(sb, ["checkout", "--", "src/app.ts"]);
        },
      );
    }

    await t.step("core.hooksPath is caught; other git config is not", async () => {
      await forgetTurns(sb);
      const other = await turn(
        sb,
        "g-git-other",
        () => gitOk(sb, ["config", "user.nickname", "x"]),
      );
      assert.equal(other, null, "a git config change that leaves the hooks path alone");
      const hooks = await turn(
        sb,
        "g-git-hooks",
        () => gitOk(sb, ["config", "core.hooksPath", "/dev/null"]),
      );
      assertGuardBlock(
        hooks,
        /\.git\/config:1/,
        /git's hooks, attributes, excludes or filter config/,
      );
      await gitOk(sb, ["config", "--unset", "core.hooksPath"]);
    });

    await t.step(
      "Claude settings hooks are caught; permissions Claude Code writes are not",
      async () => {
        await forgetTurns(sb);
        const local = join(root, ".claude", "settings.local.json");
        await Deno.mkdir(join(root, ".claude"), { recursive: true });
        await Deno.writeTextFile(local, '{"permissions":{"allow":[]}}\n');
        const perms = await turn(
          sb,
          "g-perms",
          () => Deno.writeTextFile(local, '{"permissions":{"allow":["Bash(ls)"]}}\n'),
        );
        assert.equal(perms, null);
        const env = await turn(
          sb,
          "g-env",
          () =>
            Deno.writeTextFile(local, '{"env":{"REVIEW_GATE":"0"},"permissions":{"allow":[]}}\n'),
        );
        assertGuardBlock(env, /\.claude\/settings\.local\.json:1/, /Claude Code's settings/);
      },
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("an agent that makes the config invalid is caught: the turn's start config and its max_blocks hold", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await Deno.writeTextFile(
      join(root, ".review-gate.json"),
      '{"gates":{"claude_stop":{"max_blocks":1}}}',
    );
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "config"]);
    const session = { sessionId: "g-cap", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session), { env: VALID });
    // The agent makes the config invalid (max_blocks over 20): the turn's start config holds.
    await Deno.writeTextFile(
      join(root, ".review-gate.json"),
      '{"gates":{"claude_stop":{"max_blocks":50}}}',
    );
    const decisions = [];
    for (let i = 0; i < 3; i++) {
      const s = await runHook(
        sb,
        "claude-stop",
        stopPayload({ ...session, stopHookActive: i > 0 }),
        {
          env: VALID,
        },
      );
      decisions.push(stopDecision(s.stdout));
    }
    assert.deepEqual(
      decisions.map((d) => d?.decision),
      ["block", undefined, undefined],
      JSON.stringify(decisions),
    );
    assert.match(String(decisions[1]?.systemMessage), /stopped blocking after 1 block in a row/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the PreToolUse guard refuses push paths that run no pre-push hook or forge what it sees", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const payload = (command: string) =>
    JSON.stringify({
      session_id: "s",
      cwd: sb.repo.root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command, description: "run" },
      tool_use_id: "t1",
    });
  try {
    const refused: Record<string, RegExp> = {
      "git send-pack ../remote.git HEAD:refs/heads/main": /send-pack/,
      "git push --receive-pack='git receive-pack' origin main": /--receive-pack/,
      "git push --exec=/tmp/rp origin main": /--receive-pack/,
      "git -c remote.origin.receivepack=/tmp/rp push origin main": /where a push goes/,
      "git remote set-url --push origin /tmp/elsewhere.git": /where a push goes/,
      "git update-ref refs/remotes/origin/x HEAD && git push origin x":
        /remote-tracking or prefetch refs/,
    };
    for (const [command, what] of Object.entries(refused)) {
      const r = await runCli(sb, ["hook", "claude-guard"], { stdin: payload(command) });
      assert.equal(r.code, 0, r.stderr);
      const answer = JSON.parse(r.stdout).hookSpecificOutput;
      assert.equal(answer.permissionDecision, "deny", command);
      assert.match(answer.permissionDecisionReason, what, command);
      assert.match(answer.permissionDecisionReason, /Only the user may skip/);
    }
    const fetch = await runCli(sb, ["hook", "claude-guard"], {
      stdin: payload("git fetch origin"),
    });
    assert.deepEqual([fetch.code, fetch.stdout], [0, ""]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a turn that switches the gates off in the user's shell startup files is blocked, unless asked", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const home = sb.env.HOME!;
  const zdot = join(sb.dir, "zdot");
  const fish = join(sb.env.XDG_CONFIG_HOME!, "fish");
  const env = { ...VALID, ZDOTDIR: zdot };
  const run = async (id: string, edit: () => Promise<unknown>, prompt?: string) => {
    const session = { sessionId: id, cwd: sb.repo.root, prompt };
    const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
    assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
    await edit();
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(s.code, 0, s.stderr);
    return stopDecision(s.stdout);
  };
  try {
    await Deno.mkdir(home, { recursive: true });
    await Deno.mkdir(zdot, { recursive: true });
    await Deno.mkdir(fish, { recursive: true });
    await Deno.writeTextFile(join(home, ".bashrc"), "alias ll='ls -l'\n");
    const cases: [string, string, string][] = [
      [join(home, ".bashrc"), "export REVIEW_GATE=0\n", "\\.bashrc"],
      [join(home, ".profile"), "export HUSKY=0\n", "\\.profile"],
      [
        join(zdot, ".zshrc"),
        'git() { command git -c core.hooksPath=/dev/null "$@"; }\n',
        "\\.zshrc",
      ],
      [join(home, ".zshenv"), ". ~/.rg-off\n", "\\.zshenv"],
      [join(fish, "config.fish"), "set -gx REVIEW_GATE 0\n", "config\\.fish"],
    ];
    for (const [path, line, name] of cases) {
      await t.step(`${line.trim()} in ${path.slice(sb.dir.length)}`, async () => {
        await forgetTurns(sb);
        const decision = await run(
          `rc-${name}`,
          () => Deno.writeTextFile(path, line, { append: true }),
        );
        assertGuardBlock(decision, new RegExp(`${name}:1`), /a shell startup file/);
      });
    }
    await t.step("asked for by name: allowed", async () => {
      await forgetTurns(sb);
      const decision = await run(
        "rc-asked",
        () =>
          Deno.writeTextFile(join(home, ".bashrc"), "alias gs='git status'\n", { append: true }),
        "Add an alias gs for git status to my .bashrc",
      );
      assert.equal(decision, null);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a turn that edits the review-gate program the installed hooks run is blocked, unless asked", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const checkout = join(sb.dir, "opt rg");
  const script = join(checkout, "hooks", "turn-stop.sh");
  const main = join(checkout, "main.ts");
  const plugin = join(sb.dir, "plugin");
  const launcher = join(plugin, "bin", "review-gate");
  const q = (p: string) => `'${p}'`;
  const command = (hook: string) =>
    `${q(Deno.execPath())} run --allow-read ${q(main)} hook ${hook} # managed-by: review-gate`;
  const run = async (id: string, edit: () => Promise<unknown>, prompt?: string) => {
    const session = { sessionId: id, cwd: root, prompt };
    const env = { ...VALID, CLAUDE_PLUGIN_ROOT: plugin };
    const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
    assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
    await edit();
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(s.code, 0, s.stderr);
    return stopDecision(s.stdout);
  };
  try {
    for (
      const [path, text] of [[script, "#!/bin/sh\n"], [main, "// main\n"], [
        launcher,
        "#!/bin/sh\n",
      ]]
    ) {
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.writeTextFile(path, text);
    }
    // the hooks as install --claude writes them (between turns: the user's)
    await Deno.mkdir(join(root, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(root, ".claude", "settings.local.json"),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: command("claude-prompt") }] }],
          Stop: [{
            hooks: [{ type: "command", command: `sh ${q(script)} ${command("claude-stop")}` }],
          }],
        },
      }),
    );
    for (
      const [path, what] of [[script, "turn-stop\\.sh"], [main, "main\\.ts"], [
        launcher,
        "bin/review-gate",
      ]]
    ) {
      await t.step(`exit 0 put into ${path.slice(sb.dir.length)}`, async () => {
        const decision = await run(`prog-${what}`, async () => {
          const text = await Deno.readTextFile(path);
          await Deno.writeTextFile(path, text.replace("\n", "\nexit 0\n"));
        });
        assertGuardBlock(
          decision,
          new RegExp(`${what}:1`),
          /the review-gate program the hooks run/,
        );
      });
    }
    await t.step("asked for by its path: allowed", async () => {
      await forgetTurns(sb);
      const decision = await run(
        "prog-asked",
        () => Deno.writeTextFile(main, "// patched\n"),
        `Patch ${main} to log more`,
      );
      assert.equal(decision, null);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a turn that edits the previous pre-push hook the installed one runs first is blocked", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const hooks = join(sb.repo.root, ".git", "hooks");
  try {
    await Deno.mkdir(hooks, { recursive: true });
    await Deno.writeTextFile(
      join(hooks, "pre-push"),
      "#!/bin/sh\n# the user's own hook\nexit 0\n",
      {
        mode: 0o750,
      },
    );
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const chained = join(hooks, "pre-push.review-gate-chained");
    assert.match(await Deno.readTextFile(chained), /the user's own hook/);
    // the chained hook could rewrite the refs file the review reads after it
    const decision = await turn(
      sb,
      "g-chained",
      () => Deno.writeTextFile(chained, "#!/bin/sh\nprintf '' > /tmp/x\nexit 0\n"),
    );
    assertGuardBlock(decision, /pre-push\.review-gate-chained:1/, /the git pre-push hook/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("issue 19 §5 holes: a startup directory, a prompt that only names the config, a rewritten reviewer CLI", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const home = sb.env.HOME!;
  const claude = join(sb.dir, "reviewer", "claude");
  const real = join(FAKE_BIN, "claude");
  await Deno.mkdir(join(claude, ".."), { recursive: true });
  await Deno.writeTextFile(claude, `#!/bin/sh\nexec '${real}' "$@"\n`);
  await Deno.chmod(claude, 0o755);
  const env = { ...VALID, REVIEW_GATE_CLAUDE_BIN: claude };
  const run = async (id: string, edit: () => Promise<unknown>, prompt?: string) => {
    const session = { sessionId: id, cwd: root, prompt };
    const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
    assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
    await edit();
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(s.code, 0, s.stderr);
    return stopDecision(s.stdout);
  };
  try {
    await Deno.mkdir(join(home, ".bashrc.d"), { recursive: true });
    await t.step("a new file in ~/.bashrc.d", async () => {
      const decision = await run(
        "hole-bashrc-d",
        () => Deno.writeTextFile(join(home, ".bashrc.d", "rg.sh"), "export REVIEW_GATE=0\n"),
      );
      assertGuardBlock(decision, /\.bashrc\.d:1/, /a shell startup directory/);
    });
    await t.step("a prompt that only names .review-gate.json does not unlock it", async () => {
      const decision = await run(
        "hole-explain",
        () => Deno.writeTextFile(join(root, ".review-gate.json"), '{"fail_on":"critical"}'),
        "explain what .review-gate.json does",
      );
      assertGuardBlock(decision, /\.review-gate\.json:1/, /review-gate's config/);
      await Deno.remove(join(root, ".review-gate.json"));
    });
    await t.step("the reviewer CLI rewritten mid-turn", async () => {
      const decision = await run("hole-bin", async () => {
        await addTokenLine(root, "BIN_TURN");
        await Deno.writeTextFile(claude, `#!/bin/sh\n# approve everything\nexec '${real}' "$@"\n`);
      });
      assertGuardBlock(decision, /reviewer\/claude:1/, /the reviewer CLI the review runs/);
    });
  } finally {
    await sb.cleanup();
  }
});
