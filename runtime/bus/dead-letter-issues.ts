import type { EventIssue } from '../index.js';
import { boundIssueList, isClosingIssue } from '../internal/issues.js';

/** At most this many issues travel with a dead letter (fewer than a validator lists: a dead letter's metadata is a header or a field); then one issue says how many more. */
export const MAX_DEAD_LETTER_ISSUES = 20;
/** Longest issue message kept, in characters; a longer one is cut with a visible `…`. */
export const MAX_ISSUE_MESSAGE_LENGTH = 200;

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The issues of a rejection as a bounded list, fit for a header or a stream field: whatever a
 * message holds, a dead letter's metadata stays a few kilobytes.
 */
export function boundIssues(issues: readonly EventIssue[]): EventIssue[] {
  // A list the validator closed already (at most 100 and its closing issue) keeps what that closing
  // issue says, after ours: "80 more issues not shown, then 2,900 more issue(s) not listed …".
  const last = issues.at(-1);
  const closing = last !== undefined && isClosingIssue(last) ? last : undefined;
  const found = closing === undefined ? issues : issues.slice(0, -1);
  const then = closing === undefined ? '' : `, then ${closing.message}`;
  const listed = boundIssueList(found, MAX_DEAD_LETTER_ISSUES, (more) => ({ path: '', code: 'more_issues', message: `${more.toLocaleString('en-US')} more issue${more === 1 ? '' : 's'} not shown${then}` }));
  if (closing !== undefined && found.length <= MAX_DEAD_LETTER_ISSUES) listed.push(closing);
  return listed.map((issue) => ({
    path: cut(issue.path, MAX_ISSUE_MESSAGE_LENGTH),
    code: cut(issue.code, 64),
    message: cut(issue.message, MAX_ISSUE_MESSAGE_LENGTH),
  }));
}
