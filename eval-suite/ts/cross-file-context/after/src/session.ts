import { MAX_SESSIONS, SESSION_TTL } from "./config.ts";

const sessions = new Map<string, { user: string }>();

/** Opens a session for `user` under `id`; it closes by itself after SESSION_TTL. */
export function open(id: string, user: string): void {
  if (sessions.size >= MAX_SESSIONS) throw new Error("too many sessions");
  sessions.set(id, { user });
  setTimeout(() => close(id), SESSION_TTL);
}

/** Closes the session `id`. */
export function close(id: string): void {
  sessions.delete(id);
}
