/** Parses "90s", "5m" or "2h" into seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)([smh])$/.exec(text.trim());
  if (!match) throw new Error(`Invalid duration "${text}"`);
  const unit = { s: 1, m: 60, h: 3600 }[match[2] as "s" | "m" | "h"];
  return Number(match[1]) * unit;
}
