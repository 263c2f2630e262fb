/**
 * The comments of a source file, for checks that read what code says about itself (citations of
 * the repository's docs). A small lexer, not a parser: TypeScript/JavaScript comments are found by
 * walking the text past strings, template literals and regular expression literals; shell, YAML
 * and TOML comments are the text after a `#` that starts a line or follows a blank.
 *
 * @module
 */

/** One comment: its text (markers included) and the 1-based line it starts on. */
export interface Comment {
  line: number;
  text: string;
}

/** Characters after which a `/` starts a regular expression literal rather than a division. */
const REGEX_AFTER = new Set([..."(,=:[!&|?{};+-*%<>~^"]);

/**
 * The comments of a TypeScript or JavaScript source: `// …` to the end of the line and `/* … *\/`.
 *
 * @param source the file's text
 * @returns every comment in source order; an unterminated block comment runs to the end
 */
export function scriptComments(source: string): Comment[] {
  const out: Comment[] = [];
  let line = 1;
  let last = ""; // the last non-blank code character, to tell a regex from a division
  let i = 0;
  const skipQuoted = (quote: string) => {
    for (i++; i < source.length && source[i] !== quote; i++) {
      if (source[i] === "\\") i++;
      else if (source[i] === "\n") line++;
    }
    i++;
  };
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "\n") {
      line++;
      i++;
    } else if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      out.push({ line, text: source.slice(i, stop) });
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      const text = source.slice(i, stop);
      out.push({ line, text });
      line += text.split("\n").length - 1;
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      skipQuoted(c);
      last = c;
    } else if (c === "/" && (last === "" || REGEX_AFTER.has(last))) {
      let inClass = false;
      for (i++; i < source.length && source[i] !== "\n"; i++) {
        if (source[i] === "\\") i++;
        else if (source[i] === "[") inClass = true;
        else if (source[i] === "]") inClass = false;
        else if (source[i] === "/" && !inClass) break;
      }
      i++;
      last = "/";
    } else {
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return out;
}

/**
 * The comments of a shell script, YAML or TOML file: from a `#` at the start of a line or after a
 * blank to the end of the line (a `#` inside quotes after a blank is taken too: good enough for
 * the files of this repository, which are read by people and by this check alike).
 *
 * @param source the file's text
 * @returns one comment per line that has one
 */
export function hashComments(source: string): Comment[] {
  const out: Comment[] = [];
  source.split("\n").forEach((text, index) => {
    const at = text.search(/(^|\s)#/);
    if (at !== -1) out.push({ line: index + 1, text: text.slice(at).trimStart() });
  });
  return out;
}
