/// <reference lib="dom" />
export {};
/**
 * A live validator box: the textarea's text through `window.catalogValidate` (the package's
 * own validators, bundled for the page), the verdict written into the box's `role="status"`
 * element, and kept as JSON in its `data-verdict` attribute for tools.
 */

interface Issue {
  path: string;
  code: string;
  message: string;
}
type Verdict = { ok: true; event: { type: string; version: string } } | { ok: false; error: { code: string; message: string; issues: Issue[] } };

declare global {
  interface Window {
    catalogValidate?: (text: string) => Verdict;
  }
}

function render(status: HTMLElement, verdict: Verdict): void {
  status.replaceChildren();
  const head = document.createElement('p');
  if (verdict.ok) {
    head.className = 'valid';
    head.textContent = `valid: ${verdict.event.type} ${verdict.event.version}`;
    status.append(head);
    status.dataset.verdict = JSON.stringify({ ok: true });
    return;
  }
  head.className = 'invalid';
  head.textContent = `${verdict.error.code}: ${verdict.error.message}`;
  const list = document.createElement('ul');
  for (const issue of verdict.error.issues) {
    const item = document.createElement('li');
    const pointer = document.createElement('code');
    pointer.textContent = issue.path === '' ? '(whole message)' : issue.path;
    item.append(pointer, ` ${issue.code}: ${issue.message}`);
    list.append(item);
  }
  status.append(head, list);
  status.dataset.verdict = JSON.stringify({ ok: false, code: verdict.error.code, issues: verdict.error.issues.map(({ path, code, message }) => ({ path, code, message })) });
}

for (const box of document.querySelectorAll<HTMLElement>('.validator')) {
  const text = box.querySelector('textarea');
  const button = box.querySelector('button');
  const status = box.querySelector<HTMLElement>('[role="status"]');
  if (!text || !button || !status) continue;
  const check = (): void => {
    if (!window.catalogValidate) {
      status.textContent = 'The validator did not load.';
      return;
    }
    render(status, window.catalogValidate(text.value));
  };
  button.addEventListener('click', check);
  // Ctrl+Enter (Cmd+Enter) validates without leaving the text.
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) check();
  });
}
