/**
 * The fields of a Redis dead letter: fixed names that operators' tooling can rely on, written
 * by the consumer and read by the replay.
 */
export const DEAD_LETTER_FIELDS = {
  /** The original's `message` field, bytes as stored (empty when it had none). */
  message: 'message',
  /** The reason code: `malformed_message`, `invalid_payload`, `unknown_event_type`, `unknown_event_version`, `handler_failed`. */
  reason: 'reason',
  /** JSON array of `{ path, code, message }`: at most 20 issues, then one saying how many more. */
  issues: 'issues',
  /** The original's entry id in its stream. */
  originalId: 'original_id',
  /** How many times the original had been delivered. */
  deliveries: 'deliveries',
  /**
   * Every field of the original entry, in order, as JSON: `[[name, value], …]`, each name and
   * value its text when it is UTF-8, or `{ "base64": "…" }` when it is not; the value of the
   * original's `message` field is `null`, standing for the dead letter's own `message` field
   * (so the message is stored once). Replay writes the entry back from it, byte for byte.
   */
  originalFields: 'original_fields',
} as const;
