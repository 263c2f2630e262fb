import { promises as fs } from "node:fs";

/** Writes `data` to `path` atomically: a temp file, then a rename over the old one. */
export async function saveJson(path, data) {
  const tmp = `${path}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(data, null, 2));
  await fs.rename(tmp, path);
}
