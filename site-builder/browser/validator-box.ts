/// <reference lib="dom" />
/**
 * The page side of each validator box: the text is checked as the reader types (debounced),
 * by the box's validator script in a Web Worker, so the check never holds up the page; where
 * a worker cannot start (a page opened from `file://`), the same script runs on the page
 * instead. A large message (pasted, dropped or chosen as a file) is not put into the text box,
 * whose own layout would freeze the page for seconds: the box shows its beginning, read-only,
 * and the whole message goes to the worker. The verdict goes into the box's `role="status"`
 * element (and, as JSON, its `data-verdict` for tools), and the lines with a problem are marked.
 */
import type { CheckAnswer, CheckRequest, Verdict } from './validation-service.js';

const DEBOUNCE_MS = 250;
/** Text longer than this is held apart from the text box (a browser lays out a text box of megabytes for seconds). */
const LARGE_TEXT = 256 * 1024;
/** How much of a held message the text box shows. */
const PREVIEW = 64 * 1024;

/** Where the message being checked is: the text box, or held apart (a large paste, a file). */
type Source = { kind: 'typed' } | { kind: 'held'; text: string } | { kind: 'file'; file: File };

const sizeText = (bytes: number): string => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} KB`);

type Validate = (request: CheckRequest, done: (answer: CheckAnswer) => void) => void;

/** A worker running `src`, or `undefined` when the page may not start one; `failed` is called if it starts but cannot load. */
function startWorker(src: string, failed: () => void): Validate | undefined {
  let worker: Worker;
  try {
    worker = new Worker(src);
  } catch {
    return undefined;
  }
  const waiting = new Map<number, (answer: CheckAnswer) => void>();
  worker.addEventListener('message', (event: MessageEvent<CheckAnswer>) => {
    waiting.get(event.data.id)?.(event.data);
    waiting.delete(event.data.id);
  });
  worker.addEventListener('error', () => {
    worker.terminate();
    failed();
  });
  return (request, done) => {
    waiting.set(request.id, done);
    worker.postMessage(request);
  };
}

function loadScript(src: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

/** The same scripts on the page itself, loaded once, in order. */
function onPage(scripts: readonly string[]): Validate {
  let loaded: Promise<void> | undefined;
  return (request, done) => {
    loaded ??= scripts.reduce((previous, src) => previous.then(() => loadScript(src)), Promise.resolve());
    void loaded.then(() => window.catalogCheck!(request)).then(done);
  };
}

function verdictData(verdict: Verdict): unknown {
  return verdict.ok ? { ok: true } : { ok: false, code: verdict.error.code, issues: verdict.error.issues.map(({ path, code, message }) => ({ path, code, message })) };
}

class ValidatorBox {
  private readonly text: HTMLTextAreaElement;
  private readonly status: HTMLElement;
  private readonly marks: HTMLElement;
  private readonly strict: HTMLInputElement | null;
  private readonly held: HTMLElement;
  private validate: Validate;
  private source: Source = { kind: 'typed' };
  private lastId = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private markedLines: number[] = [];

  constructor(box: HTMLElement, src: string, requires: readonly string[]) {
    this.text = box.querySelector('textarea')!;
    this.status = box.querySelector<HTMLElement>('[role="status"]')!;
    this.marks = box.querySelector<HTMLElement>('.marks')!;
    this.strict = box.querySelector<HTMLInputElement>('input.strict');
    this.held = box.querySelector<HTMLElement>('.held')!;
    const fallBack = (): void => {
      this.validate = onPage([...requires, src]);
      this.check();
    };
    this.validate = startWorker(src, fallBack) ?? onPage([...requires, src]);
    this.text.addEventListener('input', () => this.schedule());
    this.text.addEventListener('paste', (event) => {
      const pasted = event.clipboardData?.getData('text/plain') ?? '';
      if (pasted.length <= LARGE_TEXT) return;
      event.preventDefault();
      this.hold({ kind: 'held', text: pasted }, pasted.slice(0, PREVIEW), `this pasted message of ${sizeText(pasted.length)}`);
    });
    this.text.addEventListener('drop', (event) => {
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      event.preventDefault();
      this.holdFile(file);
    });
    box.querySelector<HTMLInputElement>('input.file')?.addEventListener('change', (event) => {
      const file = (event.target as HTMLInputElement).files?.[0];
      if (file) this.holdFile(file);
    });
    this.held.querySelector('button')!.addEventListener('click', () => {
      this.source = { kind: 'typed' };
      this.text.readOnly = false;
      this.text.value = '';
      this.held.hidden = true;
      this.text.focus();
      this.check();
    });
    this.strict?.addEventListener('change', () => this.check());
    this.text.addEventListener('scroll', () => this.drawMarks());
    window.addEventListener('resize', () => this.drawMarks());
    this.check();
  }

  private holdFile(file: File): void {
    void file
      .slice(0, PREVIEW)
      .text()
      .then((preview) => this.hold({ kind: 'file', file }, preview, `${file.name} (${sizeText(file.size)})`));
  }

  /** Checks a message kept out of the text box, which shows its beginning read-only. */
  private hold(source: Exclude<Source, { kind: 'typed' }>, preview: string, what: string): void {
    this.source = source;
    const cut = preview.lastIndexOf('\n');
    this.text.value = cut > 0 && preview.length >= PREVIEW ? preview.slice(0, cut) : preview;
    this.text.readOnly = true;
    this.held.querySelector('span')!.textContent = `Checking ${what}; the box shows its beginning, read-only.`;
    this.held.hidden = false;
    this.check();
  }

  private schedule(): void {
    // A verdict on the text before this change, still on its way, is now stale.
    this.lastId++;
    this.status.dataset.state = 'checking';
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), DEBOUNCE_MS);
  }

  private check(): void {
    clearTimeout(this.timer);
    const id = ++this.lastId;
    this.status.dataset.state = 'checking';
    // For tools measuring the page: when a check was handed to the validator.
    performance.mark('validator-check');
    const strict = this.strict?.checked === true;
    const message = this.source.kind === 'typed' ? { text: this.text.value } : this.source.kind === 'held' ? { text: this.source.text } : { file: this.source.file };
    this.validate({ id, ...message, strict }, (answer) => {
      if (answer.id !== this.lastId) return; // the text changed since: a newer verdict is coming
      this.show(answer);
    });
  }

  private show({ verdict, lines }: CheckAnswer): void {
    const head = document.createElement('p');
    const items: HTMLElement[] = [];
    if (verdict.ok) {
      head.className = 'valid';
      head.textContent = `✓ Valid: ${verdict.event.type} ${verdict.event.version}`;
    } else {
      head.className = 'invalid';
      // The issues are listed below, so the headline names the payload and counts them rather than repeating them.
      const { error } = verdict;
      const count = error.issues.length;
      head.textContent =
        error.code === 'invalid_payload' && error.type !== undefined
          ? `✗ ${error.code}: ${count} ${count === 1 ? 'issue' : 'issues'} in the ${error.type} ${error.version ?? ''} payload`
          : `✗ ${error.code}: ${error.message}`;
      verdict.error.issues.forEach((issue, i) => {
        const item = document.createElement('li');
        const line = lines[i];
        if (line !== undefined) {
          const go = document.createElement('button');
          go.type = 'button';
          go.className = 'line';
          go.textContent = `line ${line}`;
          go.addEventListener('click', () => this.goToLine(line));
          item.append(go, ' ');
        }
        const pointer = document.createElement('code');
        pointer.textContent = issue.path === '' ? '(the whole message)' : issue.path;
        item.append(pointer, ` ${issue.code}: ${issue.message}`);
        items.push(item);
      });
    }
    const list = document.createElement('ul');
    list.append(...items);
    this.status.replaceChildren(head, ...(items.length > 0 ? [list] : []));
    this.status.dataset.verdict = JSON.stringify(verdictData(verdict));
    this.status.dataset.state = 'done';
    this.markedLines = [...new Set(lines.filter((l): l is number => l !== undefined))];
    this.drawMarks();
  }

  private lineHeight(): number {
    return parseFloat(getComputedStyle(this.text).lineHeight) || 20;
  }

  /** A bar over each line with a problem, kept in place as the text scrolls. */
  private drawMarks(): void {
    const style = getComputedStyle(this.text);
    const top = parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth) - this.text.scrollTop;
    const height = this.lineHeight();
    this.marks.replaceChildren(
      ...this.markedLines.map((line) => {
        const mark = document.createElement('div');
        mark.className = 'mark';
        mark.style.top = `${top + (line - 1) * height}px`;
        mark.style.height = `${height}px`;
        return mark;
      }),
    );
  }

  private goToLine(line: number): void {
    const value = this.text.value;
    let start = 0;
    for (let n = 1; n < line && start >= 0; n++) start = value.indexOf('\n', start) + 1;
    const end = value.indexOf('\n', start);
    this.text.focus();
    this.text.setSelectionRange(start, end < 0 ? value.length : end);
    this.text.scrollTop = Math.max(0, (line - 3) * this.lineHeight());
    this.drawMarks();
  }
}

const absolute = (src: string): string => new URL(src, document.baseURI).href;
for (const box of document.querySelectorAll<HTMLElement>('.validator[data-validator]')) {
  const requires = (box.dataset.requires ?? '').split(' ').filter((src) => src !== '').map(absolute);
  new ValidatorBox(box, absolute(box.dataset.validator!), requires);
}
