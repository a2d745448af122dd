import { commentText } from '../common/safe-text.js';
import type { ProblemList } from './problems.js';

/**
 * The naming rule of catalog files. A file's path is written into the banner of every file
 * generated from it (a `//` comment in JavaScript, `#` in YAML, `<!-- -->` in Markdown), so
 * a name that could end such a comment and start code is refused before anything is emitted.
 */
export const CATALOG_FILE_NAME_RULE = {
  pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
  text: 'letters a-z and A-Z, digits, ".", "_" and "-", starting with a letter or digit',
} as const;

/** Characters no path may hold: they end a comment line, or hide what the text says. */
const UNSEEN_OR_LINE_BREAK = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Checks the name of one catalog file (the last segment of `path`), reporting a problem at
 * its first line when the name breaks the rule or the path holds a control or line-break
 * character. Returns the path to show in messages: as given, or escaped when it is unsafe.
 */
export function checkCatalogFileName(path: string, problems: ProblemList): string {
  const shown = commentText(path);
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (UNSEEN_OR_LINE_BREAK.test(path) || !CATALOG_FILE_NAME_RULE.pattern.test(name)) {
    problems.error(
      { file: shown, line: 1, col: 1 },
      `catalog file name "${commentText(name)}" is not allowed: use ${CATALOG_FILE_NAME_RULE.text} (the path is written into every generated file)`,
    );
  }
  return shown;
}
