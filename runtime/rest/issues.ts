/**
 * The REST surface's words for the one translator (`internal/issues.ts`): its requests are
 * strict ("only documented fields may be sent"), its patterns are the seed's formats, and the
 * closing issue of a request or response with more than `MAX_ISSUES` sits at its root.
 */
import { apiFormatOfPattern, type ApiFormat } from '../../generated/api/formats.js';
import { contractKeywords, IssueList, type Issue, type IssueWording } from '../internal/issues.js';

/** One thing wrong with a request or response, at its place: the package's one issue type, by its REST name. */
export type ApiIssue = Issue;

/** How the REST surface states each format: typed by the generated formats, so a new one cannot go unworded. */
const STATED_FORMS: Readonly<Record<ApiFormat, string>> = {
  date: 'a date YYYY-MM-DD',
  datetime: 'a datetime YYYY-MM-DDTHH:MM:SSZ',
  decimal: 'a decimal with two places, as text',
};

/** The stated form a pattern enforces: its format, as the generator states it, or the pattern itself. */
function statedForm(pattern: string): string {
  const format = Object.hasOwn(apiFormatOfPattern, pattern) ? apiFormatOfPattern[pattern] : undefined;
  return format === undefined ? `text matching ${pattern}` : STATED_FORMS[format];
}

const API_WORDING: IssueWording = {
  unlisted: 'is not documented (only documented fields may be sent)',
  keywords: contractKeywords(statedForm, 'matches none of the bodies the contract allows here'),
  closing: (more) => ({ path: '', code: 'more_issues', message: `${more.toLocaleString('en-US')} more issues not listed` }),
};

/** An empty list for the issues of one request or response, in the REST surface's words. */
export const apiIssueList = (): IssueList => new IssueList(API_WORDING);
