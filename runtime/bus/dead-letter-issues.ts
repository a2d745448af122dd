import type { EventIssue } from '../index.js';
import { boundIssueList } from '../internal/issues.js';

/** At most this many issues travel with a dead letter; then one issue says how many more. */
export const MAX_DEAD_LETTER_ISSUES = 20;
/** Longest issue message kept, in characters; a longer one is cut with a visible `…`. */
export const MAX_ISSUE_MESSAGE_LENGTH = 200;

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The issues of a rejection as a bounded list, fit for a header or a stream field: whatever a
 * message holds, a dead letter's metadata stays a few kilobytes.
 */
export function boundIssues(issues: readonly EventIssue[]): EventIssue[] {
  const listed = boundIssueList(issues, MAX_DEAD_LETTER_ISSUES, (more) => ({ path: '', code: 'more_issues', message: `${more} more issue${more === 1 ? '' : 's'} not shown` }));
  return listed.map((issue) => ({
    path: cut(issue.path, MAX_ISSUE_MESSAGE_LENGTH),
    code: cut(issue.code, 64),
    message: cut(issue.message, MAX_ISSUE_MESSAGE_LENGTH),
  }));
}
