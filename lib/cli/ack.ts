/**
 * `review-gate ack <fingerprint|run-id:n> --reason TEXT [--expires DATE]`: accept a finding that is
 * not a problem. The acknowledgement goes into `.review-gate/acks.json` in the repository (commit it:
 * it is reviewed like code, and CI reads it from the base branch); from then on the finding never
 * blocks, is shown as "acknowledged (reason)" and is told to the model as known. It holds while the
 * lines it points at stay the same: a change there makes it a new finding.
 * This file defines the command; its work, lib/cli/ack_action.ts, loads when it runs.
 *
 * @module
 */
import { ACKS_FILE } from "../acks/types.ts";
import { type CliContext, type CommandRoutes, defineCommand, text } from "./command.ts";

const BRIEF = "Accept a finding that is not a problem: it stops blocking and shows as acknowledged";

/** `ack`. */
export const ackRoutes: CommandRoutes = {
  ack: defineCommand({
    docs: {
      brief: BRIEF,
      fullDescription: `${BRIEF}

The fingerprint is printed with every finding (and in blocked pushes and turns). The
acknowledgement is written to ${ACKS_FILE}: commit it so your team and CI share it. It holds while
the lines the finding points at stay as they are; change them and the finding is new again.`,
    },
    parameters: {
      flags: {
        reason: {
          kind: "parsed",
          parse: String,
          placeholder: "text",
          brief: "why the finding is accepted (kept in the file)",
        },
        expires: text("date", "last day it holds: YYYY-MM-DD, or a span like 30d or 12w"),
      },
      positional: {
        kind: "tuple",
        parameters: [{
          placeholder: "finding",
          brief: "its fingerprint (or a prefix of 8+ characters) or <run-id>:<n>",
          parse: String,
        }],
      },
    },
    async func(this: CliContext, flags: { reason: string; expires?: string }, ref: string) {
      await (await import("./ack_action.ts")).ackAction(ref, flags, this.deps);
    },
  }),
};
