/**
 * The pre-push hook text review-gate writes (pure). Three shapes, from the templates in `hooks/`:
 * the plain stub, the stub that chains a foreign hook kept beside it, and the one line added to a
 * hook file we do not own (husky's `.husky/pre-push`, or a foreign hook that cannot be renamed;
 * where it goes is lib/install/git/placement.ts). Every shape carries the `managed-by: review-gate`
 * marker, which is how install and uninstall recognise our files and lines (docs/design.md
 * "Installer").
 *
 * @module
 */
import plainTemplate from "../../../hooks/pre-push.sh" with { type: "text" };
import chainedTemplate from "../../../hooks/pre-push-chained.sh" with { type: "text" };
import lineTemplate from "../../../hooks/pre-push-line.sh" with { type: "text" };
import fastTemplate from "../../../hooks/pre-push-fast.sh" with { type: "text" };
import linesScript from "../../../hooks/pre-push-lines.sh" with { type: "text" };
import skipScript from "../../../hooks/skip-record.sh" with { type: "text" };
import { fillTemplate } from "../../base/template.ts";

/** The fingerprint every file or line we write carries. */
export const MANAGED_MARKER = "managed-by: review-gate";

/** File name a foreign pre-push hook is kept under, beside our stub, while we are installed. */
export const CHAINED_HOOK_NAME = "pre-push.review-gate-chained";

/**
 * The pre-push stub.
 *
 * @param command shell command prefix from `selfCommand()` (already quoted)
 * @param options `chained: true` → the stub first runs {@linkcode CHAINED_HOOK_NAME} with the same
 *   arguments and stdin bytes (buffered once in a temp file) and fails when it fails. Either way the
 *   stub answers a deletion-only push, and a re-push whose verdicts review-gate took from its cache
 *   last time with every input unchanged, without starting review-gate (`hooks/pre-push-fast.sh`;
 *   the stamps are written by lib/gates/pre_push/push_stamp.ts); a push `REVIEW_GATE=0` skips
 *   leaves its skip record (`hooks/skip-record.sh`, README "Skips") without starting review-gate
 * @returns POSIX sh text ending in a newline
 */
export function renderPrePushStub(command: string, options: { chained?: boolean } = {}): string {
  const fast_path = [linesScript, fillTemplate(fastTemplate, { command }), skipScript]
    .map((text) => text.trimEnd()).join("\n\n");
  return options.chained
    ? fillTemplate(chainedTemplate, { chained_name: CHAINED_HOOK_NAME, fast_path })
    : fillTemplate(plainTemplate, { fast_path });
}

/**
 * The one line added to a hook file we do not own (husky runs `.husky/pre-push` with `sh -e`). It
 * reads stdin (git's ref lines) into a temp file, opens it twice and deletes it, runs our hook on
 * one copy and leaves the other as the script's stdin, so the commands after it see the same
 * bytes; a blocking review exits the script with our code. Under `REVIEW_GATE=0` it runs `skip`
 * instead (the skip record's script, whose failure never stops the script).
 *
 * @param command shell command prefix from `selfCommand()`
 * @param skip the skip record's command (lib/install/self_command.ts `pushSkipScript`); default
 *   `:` (nothing is recorded)
 * @returns one line without its newline
 */
export function renderHookLine(command: string, skip = ":"): string {
  return fillTemplate(lineTemplate, { command, skip }).trimEnd();
}

/** True when hook text (a file or a line) carries our marker. */
export function isManaged(text: string): boolean {
  return text.includes(MANAGED_MARKER);
}

/**
 * True for a whole hook file review-gate wrote (a stub from {@linkcode renderPrePushStub}: its
 * marker is the second line), as opposed to a file holding one line of ours.
 */
export function isOurStub(text: string): boolean {
  return text.startsWith(`#!/bin/sh\n# ${MANAGED_MARKER}\n`);
}
