/** The headers of a NATS dead letter: fixed names that operators' tooling can rely on. */
export const DEAD_LETTER_HEADERS = {
  /** The reason code: `malformed_message`, `invalid_payload`, `unknown_event_type`, `unknown_event_version`, `handler_failed`. */
  reason: 'Catalog-Reason',
  /** JSON array of `{ path, code, message }`: at most 20 issues, then one saying how many more; a few kilobytes. */
  issues: 'Catalog-Issues',
  /** The subject the original was published on; replay publishes there again. */
  subject: 'Catalog-Subject',
  /** The original's sequence in its stream. */
  streamSeq: 'Catalog-Stream-Seq',
  /** How many times the original had been delivered. */
  deliveries: 'Catalog-Deliveries',
} as const;
