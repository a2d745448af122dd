/**
 * The traffic of the scale-out test: message `i` has the id `M-<i>` somewhere in its bytes,
 * and its kind decides what a correct consumer does with it.
 */
export type Kind = 'valid' | 'fails' | 'invalid' | 'malformed' | 'unknown_type' | 'unknown_version';

/** 95 % valid; 1 % each: a handler that always fails, invalid, malformed, unknown type, unknown version. */
export function kindOf(i: number): Kind {
  switch (i % 100) {
    case 0:
      return 'fails';
    case 1:
      return 'invalid';
    case 2:
      return 'malformed';
    case 3:
      return 'unknown_type';
    case 4:
      return 'unknown_version';
    default:
      return 'valid';
  }
}

/** The reason a correct consumer dead-letters a message of this kind with (none for valid ones). */
export const expectedReason: Record<Kind, string | undefined> = {
  valid: undefined,
  fails: 'handler_failed',
  invalid: 'invalid_payload',
  malformed: 'malformed_message',
  unknown_type: 'unknown_event_type',
  unknown_version: 'unknown_event_version',
};

/** The bytes of message `i` as published. */
export function messageText(i: number): string {
  const id = `M-${i}`;
  const event = { type: 'account.created', version: 'v1', payload: { account_number: id, account_user_emails: [`${id}@example.com`] } };
  switch (kindOf(i)) {
    case 'fails':
      return JSON.stringify({ ...event, payload: { ...event.payload, account_number: `FAIL-${id}` } });
    case 'invalid':
      return JSON.stringify({ ...event, payload: { account_number: id, account_user_emails: 'not a list' } });
    case 'malformed':
      return `{"type":"account.created","version":"v1","payload":{"account_number":"${id}"`;
    case 'unknown_type':
      return JSON.stringify({ ...event, type: 'account.teleported' });
    case 'unknown_version':
      return JSON.stringify({ ...event, version: 'v99' });
    default:
      return JSON.stringify(event);
  }
}

/** The id inside a message's bytes. */
export function idIn(text: string): string {
  const match = /M-\d+/.exec(text);
  if (!match) throw new Error(`no message id in ${text.slice(0, 100)}`);
  return match[0];
}
