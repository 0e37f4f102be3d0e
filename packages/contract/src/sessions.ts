/**
 * Session rules shared by server and web client. Plain data with no schema
 * library, so the web client can import it without bundling TypeBox.
 */

/**
 * A sign-in on a shared computer ends after this many seconds without
 * activity (docs/api-reference.md §13): the server refuses such a session's next request
 * or refresh, and the web client signs out on its own after as long without input.
 */
export const SHARED_SESSION_IDLE_SECONDS = 30 * 60
