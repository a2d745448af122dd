/**
 * The REST surface's words for the one translator (`internal/issues.ts`): its requests are
 * strict ("only documented fields may be sent"), its patterns are the seed's formats, and the
 * closing issue of a request or response with more than `MAX_ISSUES` sits at its root.
 */
import { contractKeywords, IssueList, type Issue, type IssueWording } from '../internal/issues.js';

/** One thing wrong with a request or response, at its place: the package's one issue type, by its REST name. */
export type ApiIssue = Issue;

/** The stated form a pattern enforces, by the pattern's shape (the generator's date, datetime and decimal patterns). */
function statedForm(pattern: string): string {
  if (pattern.endsWith('Z$')) return 'a datetime YYYY-MM-DDTHH:MM:SSZ';
  if (pattern.includes('-02-29')) return 'a date YYYY-MM-DD';
  if (pattern.includes('\\.[0-9]{2}')) return 'a decimal with two places, as text';
  return `text matching ${pattern}`;
}

const API_WORDING: IssueWording = {
  unlisted: 'is not documented (only documented fields may be sent)',
  keywords: contractKeywords(statedForm, 'matches none of the bodies the contract allows here'),
  closing: (more) => ({ path: '', code: 'more_issues', message: `${more.toLocaleString('en-US')} more issues not listed` }),
};

/** An empty list for the issues of one request or response, in the REST surface's words. */
export const apiIssueList = (): IssueList => new IssueList(API_WORDING);
