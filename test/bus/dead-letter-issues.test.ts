/**
 * A dead letter's issues: the validator's list (at most 100 and a closing issue) bounded again
 * to 20 and one closing issue, whose count stays true: it says how many of the listed issues
 * it dropped, then what the validator's own closing issue said.
 */
import { describe, expect, it, vi } from 'vitest';
import { boundIssues, decideDelivery, deliveryPolicy, MAX_DEAD_LETTER_ISSUES } from '../../runtime/bus/index.js';
import type { EventIssue } from '../../runtime/index.js';

const policy = deliveryPolicy({ backoffMs: 100 });
/** An account.created message whose `account_user_emails` holds `count` numbers: one issue each. */
const withWrongEmails = (count: number): string =>
  `{"type":"account.created","version":"v1","payload":{"account_number":"A","account_user_emails":[${Array<number>(count).fill(1).join(',')}]}}`;

async function deadLetterIssues(data: string): Promise<EventIssue[]> {
  const decision = await decideDelivery({ data, deliveries: 1, message: {} }, vi.fn(), policy);
  if (decision.action !== 'dead_letter') throw new Error(`expected a dead letter, got ${decision.action}`);
  return decision.issues;
}

describe('dead letters keep 20 issues and one closing issue', () => {
  it('keeps a list of 20 whole', async () => {
    const issues = await deadLetterIssues(withWrongEmails(MAX_DEAD_LETTER_ISSUES));
    expect(issues).toHaveLength(20);
    expect(issues.every((issue) => issue.code === 'type')).toBe(true);
  });

  it('cuts 21 to 20 and says "1 more issue not shown"', async () => {
    const issues = await deadLetterIssues(withWrongEmails(21));
    expect(issues).toHaveLength(21);
    expect(issues[19]).toMatchObject({ path: '/payload/account_user_emails/19', code: 'type' });
    expect(issues[20]).toEqual({ path: '', code: 'more_issues', message: '1 more issue not shown' });
  });

  it('keeps the count true past the validator\'s own limit: 80 dropped here, then the 2,900 the validator did not list', async () => {
    const issues = await deadLetterIssues(withWrongEmails(3000));
    expect(issues).toHaveLength(21);
    expect(issues[20]).toEqual({ path: '', code: 'more_issues', message: '80 more issues not shown, then 2,900 more issue(s) not listed (at most 100 are)' });
  });

  it('passes a closed list of at most 20 through with the validator\'s closing issue as it was', () => {
    const listed: EventIssue[] = Array.from({ length: 5 }, (_, i) => ({ path: `/payload/items/${i}`, code: 'type', message: 'expected string, got integer' }));
    const closing = { path: '/payload', code: 'too_many_issues', message: 'possibly more issue(s) not listed: the payload is too large to search in full, so only part of it was' };
    expect(boundIssues([...listed, closing])).toEqual([...listed, closing]);
  });
});
