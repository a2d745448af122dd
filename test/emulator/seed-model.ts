/**
 * A small model of the seed's rules, written apart from the emulator for the random walk:
 * what each operation should answer and emit given what came before. Where the seed says
 * nothing, it states the emulator's documented choices (README, "Run the service locally").
 */
import type { OperationId } from '../../runtime/rest/index.js';

export type SupplierStatus = 'Ongoing' | 'Paused' | 'Complete';

export interface ModelNote {
  body?: string;
  documentPaths?: readonly { document_path: string }[];
  createdAt: string;
}

export interface ModelAccount {
  supplier: string;
  external: string;
  platform?: string;
  createdAt?: string;
  notes: ModelNote[];
  transactionIds: Set<string>;
}

export interface ExpectedEvent {
  type: string;
  payload: Record<string, string>;
}

export interface ModelFault {
  status: number;
  body?: unknown;
}

/** The open statement period of the walk: the clock starts on 2024-02-10 and a run lasts minutes. */
export const PERIOD = { first: '2024-02-01', last: '2024-02-29' } as const;
export const CLOCK_START = '2024-02-10T08:00:00Z';

export class SeedModel {
  readonly suppliers = new Map<string, SupplierStatus>();
  /** In the order accounts were first staged. */
  readonly accounts = new Map<string, ModelAccount>();
  readonly faults = new Map<OperationId, ModelFault[]>();
  private nextCallMs = Date.parse(CLOCK_START);

  /** The emulator clock's time for the next operation call, `YYYY-MM-DDTHH:MM:SSZ`. */
  tick(): string {
    const time = new Date(this.nextCallMs).toISOString().replace('.000Z', 'Z');
    this.nextCallMs += 1000;
    return time;
  }

  supplier(code: string): SupplierStatus {
    return this.suppliers.get(code) ?? 'Ongoing';
  }

  account(supplier: string, external: string): ModelAccount | undefined {
    return this.accounts.get(`${supplier}/${external}`);
  }

  imported(supplier: string, external: string): (ModelAccount & { platform: string }) | undefined {
    const account = this.account(supplier, external);
    return account?.platform === undefined ? undefined : (account as ModelAccount & { platform: string });
  }

  stage(supplier: string, external: string): void {
    if (!this.account(supplier, external)) this.accounts.set(`${supplier}/${external}`, { supplier, external, notes: [], transactionIds: new Set() });
  }

  /** The fault waiting for this operation's next call, taken. */
  takeFault(operationId: OperationId): ModelFault | undefined {
    return this.faults.get(operationId)?.shift();
  }

  listItems(supplier: string, which: 'all' | 'pending' | 'imported'): unknown[] {
    return [...this.accounts.values()]
      .filter((a) => a.supplier === supplier && (which === 'all' || (which === 'imported') === (a.platform !== undefined)))
      .map((a) => ({ external_account_number: a.external, platform_account_number: a.platform ?? null, account_created_at: a.createdAt ?? null }));
  }
}

/** A phone number as the emulator documents it: 7 to 15 digits, an optional `+`, spaces, hyphens and brackets between. */
export const isPhoneNumber = (text: string): boolean => /^\+?[0-9]{7,15}$/.test(text.replace(/[ ()-]/g, ''));

/** A whole number of cents as the two-place decimal string the service answers. */
export function centsText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Whether a note is already on the account: same body (or, without one, the same documents) and the same `created_at` when given. */
export function noteExists(notes: readonly ModelNote[], note: { body?: string; document_paths?: readonly { document_path: string }[]; created_at?: string }): boolean {
  return notes.some(
    (n) =>
      n.body === note.body &&
      (note.body !== undefined || JSON.stringify(n.documentPaths ?? []) === JSON.stringify(note.document_paths ?? [])) &&
      (note.created_at === undefined || n.createdAt === note.created_at),
  );
}
