// Size limits of the Git database and contents APIs.

/** Upstream's limit on a blob (spec, Limits). */
export const MAX_BLOB_BYTES = 100 * 1024 * 1024;

/**
 * Request body limit of the routes that carry file content: a 100 MB blob arrives as
 * about 134 MB of base64, more than the app's usual limit, and is then refused with
 * a 422 that says why rather than a bare 413.
 */
export const BLOB_BODY_LIMIT = Math.ceil((MAX_BLOB_BYTES * 4) / 3) + 1024 * 1024;
