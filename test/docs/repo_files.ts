/**
 * The repository's own text files whose comments the docs checks read: sources, scripts, hooks,
 * workflows and Markdown (its prose, outside code), without data (recorded samples, generated validators, caches, the npm pack's deno-cache/) and
 * without what is not the repository's (`.git`, `node_modules`).
 *
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { hashComments, scriptComments } from "./comments.ts";
import type { Comment } from "./comments.ts";

/** The repository root, absolute. */
export const ROOT: string = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** Repository-relative directories that hold data, not prose. */
const SKIPPED = new Set([
  ".git",
  "node_modules",
  "coverage",
  "deno-cache",
  "eval-suite",
  "fixtures/sample",
  "lib/generated",
  "test/contract/.cache",
  "test/contract/vibe_samples",
]);

/** How a file's comments are read, by its name; undefined for a file that is not read. */
export function commentsOf(path: string, text: string): Comment[] | undefined {
  if (/\.(ts|js|mjs)$/.test(path)) return scriptComments(text);
  if (/\.(sh|ya?ml|toml)$/.test(path) || /^#!.*\bsh\b/.test(text)) return hashComments(text);
  if (path.endsWith(".md")) return [{ line: 1, text: markdownProse(text) }];
  return undefined;
}

/**
 * A Markdown text without its code: fenced blocks and inline code spans (which name files of the
 * product's vocabulary, or of other projects, rather than cite this repository's docs) are blanked,
 * keeping the line count.
 */
export function markdownProse(text: string): string {
  return text.replace(
    /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm,
    (block) => block.replace(/[^\n]/g, " "),
  )
    .replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));
}

/**
 * Every file under the root that {@linkcode commentsOf} reads, with its comments.
 *
 * @returns repository-relative path, comments
 */
export function repoComments(): { path: string; comments: Comment[] }[] {
  const out: { path: string; comments: Comment[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const absolute = join(dir, entry.name);
      const path = relative(ROOT, absolute);
      if (SKIPPED.has(path)) continue;
      if (entry.isDirectory) walk(absolute);
      if (!entry.isFile) continue;
      let text: string;
      try {
        text = Deno.readTextFileSync(absolute);
      } catch {
        continue; // not UTF-8 text
      }
      const comments = commentsOf(path, text);
      if (comments) out.push({ path, comments });
    }
  };
  walk(ROOT);
  return out;
}
