import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Writes a 256-pixel-wide thumbnail of `input` to `output` with ImageMagick. */
export async function thumbnail(input, output) {
  await run("convert", [input, "-resize", "256x", output]);
}
