/** Settings of the session service. */
export const COOKIE_NAME = "sid";
export const MAX_SESSIONS = 10_000;
/** How long an idle session lives. */
export const SESSION_TTL = 30 * 60; // seconds
