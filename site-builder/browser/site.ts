/// <reference lib="dom" />
/**
 * What every page does: copy buttons, `/` to search, the section index open on wide screens,
 * and the compare form of an event's versions.
 */

function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied ? Promise.resolve() : Promise.reject(new Error('copy refused'));
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button.copy[data-copy]')) {
  button.addEventListener('click', () => {
    const source = document.getElementById(button.dataset.copy!);
    if (!source) return;
    copyText(source.textContent ?? '').then(
      () => (button.textContent = 'Copied'),
      () => (button.textContent = 'Select and copy'),
    );
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
}

// `/` searches: the box on the home page, or the home page's search from elsewhere.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement | null;
  if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
  event.preventDefault();
  const box = document.querySelector<HTMLInputElement>('input[type="search"]');
  if (box) box.focus();
  else window.location.href = `${document.querySelector<HTMLAnchorElement>('a.site-name')!.href}#search`;
});
if (window.location.hash === '#search') document.querySelector<HTMLInputElement>('input[type="search"]')?.focus();

// The section index stays open where there is room for it beside the page.
const index = document.querySelector<HTMLDetailsElement>('.section-index details');
if (index) {
  const wide = window.matchMedia('(min-width: 64rem)');
  const follow = (): void => void (index.open = wide.matches);
  follow();
  wide.addEventListener('change', follow);
}

// Comparing two versions: the pair picked is shown, the others hidden.
for (const form of document.querySelectorAll<HTMLFormElement>('form.compare')) {
  const diffs = form.parentElement!.querySelector<HTMLElement>('.diffs')!;
  const update = (): void => {
    const from = (form.elements.namedItem('from') as HTMLSelectElement).value;
    const to = (form.elements.namedItem('to') as HTMLSelectElement).value;
    for (const diff of diffs.querySelectorAll<HTMLElement>('.diff')) diff.hidden = diff.dataset.from !== from || diff.dataset.to !== to;
    diffs.querySelector<HTMLElement>('.diff-same')!.hidden = from !== to;
  };
  form.addEventListener('change', update);
  form.addEventListener('submit', (event) => event.preventDefault());
}
