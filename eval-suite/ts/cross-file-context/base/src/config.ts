/** Settings of the session service. */
export const COOKIE_NAME = "sid";
export const MAX_SESSIONS = 10_000;
