/**
 * `@data-import/event-catalog/emulator` (Node only): the data-import service run locally from
 * its contract. The 11 operations with in-memory state by the seed's rules, every request and
 * every answer checked with the package's own validators, the catalog's
 * `data_import.import_process.*` events emitted through the package's publishers (or to
 * memory and JSON Lines), and control endpoints under `/_emulator/`.
 */
export { startEmulator } from './start-emulator.js';
export type { Emulator } from './start-emulator.js';
export type { EmulatorOptions } from './options.js';
export type { EmittedEventRecord } from './emulation.js';
export type { EmulatorCoverage, OperationCoverage } from './coverage.js';
export type { FaultRequest } from './faults.js';
export { SUPPLIER_STATUSES, SuppliersError } from './suppliers.js';
export type { SupplierSettings, SupplierStatus } from './suppliers.js';
export { DRY_RUN_TEXT } from './account-operations.js';
