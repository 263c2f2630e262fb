import assert from "node:assert/strict";
import { commandParts, gateEscape } from "./escapes.ts";

Deno.test("gateEscape() refuses the ways an agent would skip or switch off the gate", async (t) => {
  const refused: Record<string, RegExp> = {
    "git push --no-verify": /--no-verify/,
    "git push --no-verify origin main": /--no-verify/,
    "git push origin main --no-verify": /--no-verify/,
    "git push --no-veri origin": /--no-verify/,
    "cd repo && git push -u --no-verify origin HEAD": /--no-verify/,
    'git config alias.p "push --no-verify"': /--no-verify/,
    "REVIEW_GATE=0 git push": /REVIEW_GATE/,
    "REVIEW_GATE=off git push origin main": /REVIEW_GATE/,
    "export REVIEW_GATE=0": /REVIEW_GATE/,
    "env REVIEW_GATE=0 git push": /REVIEW_GATE/,
    "env -i PATH=/bin REVIEW_GATE=false git push": /REVIEW_GATE/,
    "REVIEW_GATE_CHILD=1 git push": /REVIEW_GATE/,
    "HUSKY=0 git push": /HUSKY/,
    "GIT_CONFIG_PARAMETERS=\"'core.hooksPath=/dev/null'\" git push": /hooksPath|git config/,
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git push":
      /hooksPath|git config/,
    "git config core.hooksPath /dev/null": /core\.hooksPath/,
    "git config --unset core.hooksPath": /core\.hooksPath/,
    "git -c core.hooksPath=/dev/null push": /core\.hooksPath/,
    "git -c core.HooksPath=/x push origin": /core\.hooksPath/,
    "review-gate gate disable claude-stop": /turning review-gate off/,
    "review-gate gate disable": /turning review-gate off/,
    "review-gate uninstall --git": /turning review-gate off/,
    "deno run -A /opt/rg/main.ts gate  disable pre-push": /turning review-gate off/,
    "review-gate ack 1a2b3c4d5e6f --reason fine": /accepting a finding/,
    "env -u CLAUDECODE review-gate ack 1a2b3c4d5e6f --reason x": /accepting a finding/,
    "rm .git/hooks/pre-push": /pre-push hook files/,
    "chmod -x .git/hooks/pre-push": /pre-push hook files/,
    "echo exit 0 > .husky/pre-push": /pre-push hook files/,
    "sed -i 1d .husky/pre-push": /pre-push hook files/,
    "mv .git/hooks/pre-push.review-gate-chained .git/hooks/pre-push": /pre-push hook files/,
    "true \\\n && git push --no-verify": /--no-verify/,
    "rm -rf .git/review-gate/sessions": /review-gate's state/,
    "echo '{}' > .git/review-gate/sessions/s.json": /review-gate's state/,
    "python3 -c \"open('.git/review-gate/sessions/s.json','w').write('{}')\"":
      /review-gate's state/,
    "for f in glob.glob('.git/review-gate/sessions/*.json'):": /review-gate's state/,
    "sed -i s/a/b/ .git/review-gate/sessions/s.json": /review-gate's state/,
    "cat x > .git/review-gate/cache/v.json": /review-gate's state/,
    'cp forged.json "$(git rev-parse --git-dir)/review-gate/sessions/s.json"':
      /review-gate's state/,
    "cd .git && rm -r review-gate/sessions": /review-gate's state/,
    // the stop stamps the installed Stop script trusts, and the session anchors, live there
    'sed -i "6s/.*/$T/" ~/.local/state/review-gate/anchors/s1.stop': /review-gate's state/,
    "printf x > $XDG_STATE_HOME/review-gate/anchors/s1.json": /review-gate's state/,
    // push paths that run no pre-push hook, or change what it sees (issue 19 §7)
    "git send-pack origin refs/heads/main": /send-pack/,
    "git send-pack ../remote.git main": /send-pack/,
    "git-send-pack --all /srv/r.git": /send-pack/,
    "git http-push https://h/r.git main": /send-pack|http-push/,
    "git push --receive-pack='git receive-pack' origin main": /receive-pack/,
    "git push --receive-pack 'sh -c x' origin main": /receive-pack/,
    "git push --rece=x origin": /receive-pack/,
    "git push --exec=/tmp/rp origin main": /receive-pack/,
    "git push --exec /tmp/rp origin": /receive-pack/,
    "git -c remote.origin.receivepack=/tmp/rp push origin": /receive-pack|push goes/,
    "git config remote.origin.receivepack /tmp/rp": /receive-pack|push goes/,
    "git config remote.origin.pushurl /tmp/other.git": /push goes/,
    "git config --add remote.origin.pushurl /tmp/o.git": /push goes/,
    'git config url."/tmp/o.git".pushInsteadOf origin': /push goes/,
    "git remote set-url --push origin /tmp/other.git": /push goes/,
    'git config --global url."/tmp/o.git".insteadOf git@github.com:o/r.git': /push goes/,
    "git -c remote.origin.pushurl=/tmp/o.git push origin main": /push goes/,
    "git remote set-url origin --push /tmp/other.git": /push goes/,
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.receivepack GIT_CONFIG_VALUE_0=x git push":
      /git config/,
    "git update-ref refs/remotes/origin/x HEAD": /remote-tracking/,
    "git update-ref -d refs/remotes/origin/side": /remote-tracking/,
    "git update-ref --stdin": /remote-tracking/,
    "git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/x": /remote-tracking/,
    "git fetch . HEAD:refs/remotes/origin/x": /remote-tracking/,
    "git push . +HEAD:refs/remotes/origin/feature": /remote-tracking/,
    "echo $(git rev-parse HEAD) > .git/refs/remotes/origin/x": /remote-tracking/,
    "cp .git/refs/heads/main .git/refs/remotes/origin/new": /remote-tracking/,
    "printf '%s refs/remotes/origin/x\\n' $H >> .git/packed-refs": /remote-tracking/,
  };
  for (const [command, what] of Object.entries(refused)) {
    await t.step(`refused: ${command}`, () => {
      const reason = gateEscape(command);
      assert.ok(reason, command);
      assert.match(reason, what);
    });
  }
  const allowed = [
    "git push",
    "git push -n origin main", // -n is --dry-run for push
    "git push --dry-run origin main",
    "git push --force-with-lease origin feature",
    "git commit --no-verify -m wip", // commit hooks are not the review gate
    "git config --get core.hooksPath",
    "git rev-parse --git-path hooks",
    "cat .husky/pre-push",
    "ls -la .git/hooks",
    "review-gate review --staged",
    "review-gate gate status",
    "review-gate acks",
    "REVIEW_GATE_PROVIDER=codex review-gate review",
    "npm test && git status",
    "cat .git/review-gate/runs/r1/run.json",
    "ls .git/review-gate/runs",
    "grep -r verdict .git/review-gate/runs | head",
    "cat ~/.local/state/review-gate/anchors/s1.stop",
    "npm i -D review-gate",
    "git fetch origin",
    "git fetch --prune origin",
    "git remote set-url origin git@github.com:o/r.git",
    "git config --get remote.origin.pushurl",
    "git config --get-regexp 'url\\..*\\.insteadof'",
    "git branch -r",
    "git log origin/main..HEAD",
    "cat .git/refs/remotes/origin/main",
    "git update-ref refs/heads/wip HEAD",
    "git for-each-ref refs/remotes",
    "git show-ref refs/remotes/origin/main",
  ];
  for (const command of allowed) {
    await t.step(`allowed: ${command}`, () => assert.equal(gateEscape(command), null));
  }
});

Deno.test("commandParts() splits on the shell's list operators and joins continued lines", () => {
  assert.deepEqual(commandParts("a && b || c; d | e & f\ng \\\n h"), [
    "a",
    "b",
    "c",
    "d",
    "e",
    "f",
    "g   h",
  ]);
});
