/**
 * The hidden `review` option that makes a process run the background job it was started for
 * (lib/jobs/start.ts passes it; the command line defines it without loading the jobs code).
 *
 * @module
 */

/** The hidden `review` option that makes a process run a job it was started for. */
export const JOB_ID_OPTION = "--job-id";
