/**
 * GitHub Actions workflow commands (`::error file=…,line=…,endLine=…,title=…::message`), pure: one
 * annotation per finding, with the escaping the runner undoes (actions/toolkit `command.ts`,
 * actions/runner `ActionCommand.cs`): in the message `%`, CR and LF are percent-encoded; in a
 * property also `:` and `,`. Every line starts with our own `::command`, and the model's text only
 * ever appears escaped inside it, so it can never start a line the runner would read as a command.
 * GitHub shows at most 10 error and 10 warning annotations per step: each level lists its most
 * severe 9 and one annotation saying how many more are in the job summary. What was not reviewed
 * comes first: one annotation saying NOT reviewed or partially reviewed — an error when nothing was,
 * or when the result blocks (`on_partial: block`), else a warning — then a warning per file left
 * out.
 *
 * @module
 */
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import { narrowedLine } from "../git/coverage_text.ts";
import type { RenderInput, RenderOptions } from "./renderer.ts";
import { GITHUB_COMMAND, nonBlockingLevel } from "./levels.ts";
import { buildView, cachedVerdictNote, type FindingView, WOULD_BLOCK } from "./view.ts";

/** Annotations GitHub shows per level and step; one of them is kept to count the rest. */
export const ANNOTATIONS_PER_LEVEL = 10;
/** Longest message the runner keeps (it truncates at 4096 characters). */
const MAX_MESSAGE_CHARS = 4000;

/** Escape workflow-command data (the message): `%`, CR, LF. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escape a workflow-command property value: as data, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

type Level = "error" | "warning" | "notice";

/**
 * One workflow command line.
 *
 * @param level the command
 * @param properties `file`, `line`, `endLine`, `title` (empty values left out)
 * @param message the annotation text
 */
export function command(
  level: Level,
  properties: Record<string, string | number | undefined>,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  const text = message.length > MAX_MESSAGE_CHARS
    ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`
    : message;
  return `::${level}${props ? ` ${props}` : ""}::${escapeData(text)}\n`;
}

/**
 * A finding's annotation level: acknowledged → notice; one that does not block (one a warn-mode
 * gate let through included) is never an error.
 */
function githubLevel(view: FindingView): Level {
  if (view.acknowledged) return "notice";
  const level = GITHUB_COMMAND[view.finding.severity];
  return view.blocking ? level : nonBlockingLevel<Level>(level, "error", "warning");
}

function findingCommand(view: FindingView, pathPrefix: string): string {
  const f = view.finding;
  const level = githubLevel(view);
  const state = view.acknowledged
    ? `acknowledged (${view.acknowledged.reason})`
    : view.blocking
    ? "blocking"
    : view.wouldBlock
    ? WOULD_BLOCK
    : `not blocking: ${view.notBlocking}`;
  const id = view.fingerprint?.slice(0, SHORT_FINGERPRINT);
  const ack = id && !view.acknowledged
    ? `\n\nNot a problem? review-gate ack ${id} --reason "…"`
    : "";
  return command(
    level,
    {
      file: pathPrefix + f.file,
      line: f.line_start,
      endLine: f.line_end,
      title: `review-gate [${f.severity}${state ? `, ${state}` : ""}] ${f.title}`,
    },
    `${f.body}\n\nRecommendation: ${f.recommendation}\n(${f.category}, ${f.scope}, confidence ${
      f.confidence.toFixed(2)
    })${ack}`,
  );
}

/**
 * Render a finished review as workflow commands, then one plain summary line of our own: the
 * github format's `Renderer` (lib/formats/renderer.ts).
 *
 * @param input the run record and the answer when there is one
 * @param options `policy` decides which findings block; `pathPrefix` is put before each
 *   repository-relative path to make it relative to `GITHUB_WORKSPACE` (e.g. `app/` when the
 *   repository is checked out in a sub-folder; default none)
 * @returns lines ending in a newline
 */
export function renderGithub(input: RenderInput, options: RenderOptions): string {
  const view = buildView(input, options.policy);
  const prefix = options.pathPrefix ?? "";
  const out: string[] = [];
  const [headline] = view.unreviewed;
  // NOT reviewed, or partially reviewed where that blocks (`on_partial: block`): an error
  const level: Level = view.reviewed === "none" || input.record.blocking ? "error" : "warning";
  if (headline) {
    const title = view.reviewed === "none"
      ? "review-gate: NOT reviewed"
      : "review-gate: partially reviewed";
    out.push(command(level, { title }, headline));
  }
  const parts = view.unreviewedParts;
  const room = ANNOTATIONS_PER_LEVEL - 1 - (headline && level === "warning" ? 1 : 0);
  for (const part of parts.slice(0, room)) {
    out.push(
      command(
        "warning",
        { file: prefix + part.path, title: "review-gate: NOT reviewed" },
        part.text,
      ),
    );
  }
  if (parts.length > room) {
    out.push(
      command(
        "warning",
        { title: "review-gate" },
        `${parts.length - room} more parts were not reviewed: see the job summary`,
      ),
    );
  }
  out.push(...findingCommands(view.findings, prefix, headline && level === "error" ? 1 : 0));
  const narrowed = input.record.coverage ? narrowedLine(input.record.coverage) : "";
  if (narrowed) out.push(command("notice", { title: "review-gate" }, narrowed));
  if (view.reviewed === "nothing-to-review") {
    out.push(
      command("notice", { title: "review-gate" }, "Nothing to review: the change is empty."),
    );
  }
  const cached = cachedVerdictNote(input.record);
  out.push(
    `review-gate: ${input.record.status}${
      view.reviewed === "partial" ? " (partially reviewed)" : ""
    } — ${view.findings.length} finding(s), ${
      view.wouldBlock > 0 ? `${view.wouldBlock} ${WOULD_BLOCK}` : `${view.blocking} blocking`
    }, ${view.acknowledged} acknowledged${cached ? ` — ${cached}` : ""}\n`,
  );
  return out.join("");
}

/** The findings' annotations, at most 9 per level plus one counting the rest of that level. */
function findingCommands(
  findings: readonly FindingView[],
  prefix: string,
  errorsUsed: number,
): string[] {
  const byLevel = new Map<Level, FindingView[]>();
  for (const f of findings) {
    const level = githubLevel(f);
    byLevel.set(level, [...byLevel.get(level) ?? [], f]);
  }
  const out: string[] = [];
  for (const [level, list] of byLevel) {
    const room = ANNOTATIONS_PER_LEVEL - 1 - (level === "error" ? errorsUsed : 0);
    out.push(...list.slice(0, room).map((f) => findingCommand(f, prefix)));
    if (list.length > room) {
      out.push(
        command(
          level,
          { title: "review-gate" },
          `${list.length - room} more ${level} finding(s): see the job summary or the SARIF file`,
        ),
      );
    }
  }
  return out;
}
