/** The headers of a NATS dead letter: fixed names that operators' tooling can rely on. */
export const DEAD_LETTER_HEADERS = {
  /** The reason code: `malformed_message`, `invalid_payload`, `unknown_event_type`, `unknown_event_version`, `handler_failed`. */
  reason: 'Catalog-Reason',
  /** JSON array of `{ path, code, message }`: at most 20 issues, then one saying how many more; a few kilobytes. */
  issues: 'Catalog-Issues',
  /** The subject the original was published on; replay publishes there again. */
  subject: 'Catalog-Subject',
  /** The stream that holds the original. */
  stream: 'Catalog-Stream',
  /** The original's sequence in its stream. */
  streamSeq: 'Catalog-Stream-Seq',
  /** How many times the original had been delivered. */
  deliveries: 'Catalog-Deliveries',
  /**
   * `true` on a dead letter by reference: the original was too large to travel whole with its
   * headers under the server's `max_payload`, so the dead letter's data is only its first KiB
   * and the original stays in its stream (`Catalog-Stream`, `Catalog-Stream-Seq`).
   */
  byReference: 'Catalog-By-Reference',
  /** By reference: the original's size in bytes. */
  originalSize: 'Catalog-Original-Size',
  /** By reference: the SHA-256 of the original's bytes, in hex. */
  originalSha256: 'Catalog-Original-Sha256',
} as const;

/** How much of the original a dead letter by reference carries. */
export const REFERENCE_HEAD_BYTES = 1024;
