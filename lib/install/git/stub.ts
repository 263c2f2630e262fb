/**
 * The pre-push hook text review-gate writes (pure). Three shapes, from the templates in `hooks/`:
 * the plain stub, the stub that chains a foreign hook kept beside it, and the one line added to a
 * husky `.husky/pre-push`. Every shape carries the `managed-by: review-gate` marker, which is how
 * install and uninstall recognise our files and lines (DESIGN.md "Gates" → "Installer").
 *
 * @module
 */
import plainTemplate from "../../../hooks/pre-push.sh" with { type: "text" };
import chainedTemplate from "../../../hooks/pre-push-chained.sh" with { type: "text" };
import huskyTemplate from "../../../hooks/husky-line.sh" with { type: "text" };
import { fillTemplate } from "../../base/template.ts";

/** The fingerprint every file or line we write carries. */
export const MANAGED_MARKER = "managed-by: review-gate";

/** File name a foreign pre-push hook is kept under, beside our stub, while we are installed. */
export const CHAINED_HOOK_NAME = "pre-push.review-gate-chained";

/** Marker line of a `.husky/pre-push` that review-gate created (so uninstall may delete it). */
export const HUSKY_CREATED_LINE = `# ${MANAGED_MARKER}: file created by review-gate install`;

/**
 * The pre-push stub.
 *
 * @param command shell command prefix from `selfCommand()` (already quoted)
 * @param options `chained: true` → the stub first runs {@linkcode CHAINED_HOOK_NAME} with the same
 *   arguments and stdin bytes (buffered once in a temp file) and fails when it fails
 * @returns POSIX sh text ending in a newline
 */
export function renderPrePushStub(command: string, options: { chained?: boolean } = {}): string {
  return options.chained
    ? fillTemplate(chainedTemplate, { command, chained_name: CHAINED_HOOK_NAME })
    : fillTemplate(plainTemplate, { command });
}

/**
 * The one line added to a husky `.husky/pre-push` (husky runs that file with `sh -e`).
 *
 * @param command shell command prefix from `selfCommand()`
 * @returns one line without its newline
 */
export function renderHuskyLine(command: string): string {
  return fillTemplate(huskyTemplate, { command }).trimEnd();
}

/** True when hook text (a file or a line) carries our marker. */
export function isManaged(text: string): boolean {
  return text.includes(MANAGED_MARKER);
}

/**
 * Add our line to a `.husky/pre-push` text, replacing an older line of ours.
 *
 * @param current the file's text, or `null` when the file does not exist
 * @param line from {@linkcode renderHuskyLine}
 * @returns the new text (a new file gets a shebang and {@linkcode HUSKY_CREATED_LINE})
 */
export function addHuskyLine(current: string | null, line: string): string {
  if (current === null) return `#!/bin/sh\n${HUSKY_CREATED_LINE}\n${line}\n`;
  const { text } = removeHuskyLines(current, { keepCreatedMarker: true });
  // No trailing newline → ours goes after a "\n" and ends without one, so removal restores the bytes.
  return text === "" || text.endsWith("\n") ? `${text}${line}\n` : `${text}\n${line}`;
}

/**
 * Remove our lines from a `.husky/pre-push` text.
 *
 * @param current the file's text
 * @param options `keepCreatedMarker` keeps {@linkcode HUSKY_CREATED_LINE} (used on reinstall)
 * @returns `text` without our lines; `deleteFile` when we created the file and nothing but its
 *   shebang is left
 */
export function removeHuskyLines(
  current: string,
  options: { keepCreatedMarker?: boolean } = {},
): { text: string; deleteFile: boolean; removed: number } {
  const lines = current.split("\n");
  const created = lines.includes(HUSKY_CREATED_LINE);
  let removed = 0;
  const kept = lines.filter((l) => {
    if (l === HUSKY_CREATED_LINE && options.keepCreatedMarker) return true;
    if (!isManaged(l)) return true;
    removed++;
    return false;
  });
  const text = kept.join("\n");
  const rest = kept.filter((l) => l.trim() !== "" && l !== "#!/bin/sh" && l !== HUSKY_CREATED_LINE);
  return { text, deleteFile: created && !options.keepCreatedMarker && rest.length === 0, removed };
}
