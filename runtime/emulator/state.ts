/**
 * The emulator's in-memory state: suppliers, and per account its staged data, its platform
 * account once processed, and what was imported after (notes, transactions, statements, the
 * payment instruction). One object per run; `reset` starts a new one.
 */
import type { Account, HistoricalStatement, PaymentInstruction } from '../rest/index.js';
import type { SeededRandom } from './random.js';
import type { SupplierSettings } from './suppliers.js';

export interface StoredNote {
  body?: string;
  /** `document_paths` as JSON: a note without a body is the same note when these are. */
  documents?: string;
  created_at: string;
  is_pinned?: boolean;
}

export interface AccountRecord {
  supplier: string;
  external: string;
  /** The account object as last staged. */
  data: Account;
  platform?: string;
  createdAt?: string;
  /** A process is running for it (only while `processingMs` holds one). */
  processing: boolean;
  notes: StoredNote[];
  transactionIds: Set<string>;
  transactionCount: number;
  statements: Map<string, HistoricalStatement>;
  paymentInstruction?: PaymentInstruction;
}

export class EmulatorState {
  readonly suppliers: Map<string, SupplierSettings>;
  /** Keyed by `accountKey`, in the order accounts were first staged. */
  readonly accounts = new Map<string, AccountRecord>();
  /** Processes running now, for the concurrency limit. */
  processing = 0;
  private readonly platformNumbers = new Set<string>();

  constructor(
    suppliers: ReadonlyMap<string, SupplierSettings>,
    /** With a suppliers file, only its codes exist; without, any code is an `Ongoing` supplier. */
    private readonly listedSuppliersOnly: boolean,
    private readonly random: SeededRandom,
  ) {
    this.suppliers = new Map([...suppliers].map(([code, settings]) => [code, { ...settings }]));
  }

  supplier(code: string): SupplierSettings | undefined {
    return this.suppliers.get(code) ?? (this.listedSuppliersOnly ? undefined : { status: 'Ongoing' });
  }

  account(supplier: string, external: string): AccountRecord | undefined {
    return this.accounts.get(accountKey(supplier, external));
  }

  /** The account once it has a platform account: what post-import operations need. */
  imported(supplier: string, external: string): (AccountRecord & { platform: string }) | undefined {
    const account = this.account(supplier, external);
    return account?.platform === undefined ? undefined : (account as AccountRecord & { platform: string });
  }

  /** A new platform account number, `P-` and eight hexadecimal digits from the seed (the format is not shown). */
  newPlatformNumber(): string {
    let number: string;
    do number = `P-${this.random.hex8()}`;
    while (this.platformNumbers.has(number));
    this.platformNumbers.add(number);
    return number;
  }
}

export const accountKey = (supplier: string, external: string): string => `${supplier}\u0000${external}`;
