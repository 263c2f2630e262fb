import { exec } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(exec);

/** Writes a 256-pixel-wide thumbnail of `input` to `output` with ImageMagick. */
export async function thumbnail(input, output, quality = 85) {
  await run(`convert "${input}" -resize 256x -quality ${quality} "${output}"`);
}
