import { MAX_SESSIONS } from "./config.ts";

const sessions = new Map<string, { user: string }>();

/** Opens a session for `user` under `id`. */
export function open(id: string, user: string): void {
  if (sessions.size >= MAX_SESSIONS) throw new Error("too many sessions");
  sessions.set(id, { user });
}

/** Closes the session `id`. */
export function close(id: string): void {
  sessions.delete(id);
}
