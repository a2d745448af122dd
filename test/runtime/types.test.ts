/**
 * The package root's types, checked by the compiler: this file is part of `tsc -p .` (which
 * `npm test` runs before vitest), so every `expectTypeOf` below and every `@ts-expect-error`
 * line is enforced there. A `@ts-expect-error` on a line that compiles is itself a compile
 * error (TS2578), so each one proves its line really fails to compile. Vitest also runs the
 * file, for the few run-time facts it checks.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createExhaustiveHandler,
  createHandler,
  eventCatalog,
  parseEvent,
  validateEvent,
  type AccountCreatedV1Payload,
  type AgreementRevokedV1Event,
  type AgreementRevokedV2Event,
  type AgreementRevokedV2Payload,
  type CatalogEvent,
  type EventHandler,
  type EventHandlerFn,
  type EventOf,
  type EventType,
  type EventVersion,
  type ExhaustiveHandlerMap,
  type HandlerMap,
  type PayloadOf,
  type ValidationResult,
} from '../../runtime/index.js';

// ---------------------------------------------------------------------------------------------
// EventOf, PayloadOf, EventVersion

expectTypeOf<EventOf<'account.created', 'v1'>['payload']['account_number']>().toEqualTypeOf<string>();
expectTypeOf<EventOf<'account.created', 'v1'>['payload']['account_user_emails']>().toEqualTypeOf<string[]>();
expectTypeOf<EventOf<'account.created', 'v1'>['type']>().toEqualTypeOf<'account.created'>();
expectTypeOf<EventOf<'account.created', 'v1'>['version']>().toEqualTypeOf<'v1'>();
expectTypeOf<PayloadOf<'account.created', 'v1'>>().toEqualTypeOf<AccountCreatedV1Payload>();
expectTypeOf<PayloadOf<'agreement.revoked', 'v2'>>().toEqualTypeOf<AgreementRevokedV2Payload>();
expectTypeOf<PayloadOf<'agreement.revoked', 'v2'>>().toEqualTypeOf<EventOf<'agreement.revoked', 'v2'>['payload']>();
expectTypeOf<EventVersion<'agreement.revoked'>>().toEqualTypeOf<'v1' | 'v2'>();
expectTypeOf<EventVersion<'account.created'>>().toEqualTypeOf<'v1'>();
expectTypeOf<EventVersion<'billing.billing_document_representation.dispatched'>>().toEqualTypeOf<'v1' | 'v2' | 'v3'>();
expectTypeOf<'account.created'>().toExtend<EventType>();
expectTypeOf<CatalogEvent['type']>().toEqualTypeOf<EventType>();
expectTypeOf<Extract<CatalogEvent, { type: 'agreement.revoked' }>>().toEqualTypeOf<AgreementRevokedV1Event | AgreementRevokedV2Event>();

// @ts-expect-error not an event type
type _NoSuchType = EventVersion<'no.such.event'>;
// @ts-expect-error account.created has no v2
type _NoSuchVersion = EventOf<'account.created', 'v2'>;
// @ts-expect-error agreement.revoked v1 has no account_number (v2 does)
type _NoSuchField = PayloadOf<'agreement.revoked', 'v1'>['account_number'];

const goodEvent: EventOf<'account.created', 'v1'> = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } };

const wrongFieldType: EventOf<'account.created', 'v1'> = {
  type: 'account.created',
  version: 'v1',
  // @ts-expect-error account_number is a string, not a number
  payload: { account_number: 42, account_user_emails: [] },
};

const wrongVersion: EventOf<'account.created', 'v1'> = {
  type: 'account.created',
  // @ts-expect-error the version is the literal 'v1'
  version: 'v2',
  payload: { account_number: 'A-1', account_user_emails: [] },
};

// @ts-expect-error account_user_emails is required
const missingField: PayloadOf<'account.created', 'v1'> = { account_number: 'A-1' };

const payloadWrongType: PayloadOf<'agreement.revoked', 'v2'> = {
  // @ts-expect-error agreement_id is a number
  agreement_id: '7',
  account_number: 'A-1',
};

// ---------------------------------------------------------------------------------------------
// Narrowing: switch on type, then on version; the default of an exhaustive switch is `never`.

const assertNever = (value: never): never => {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
};

function describeEvent(e: CatalogEvent): string {
  switch (e.type) {
    case 'agreement.revoked':
      expectTypeOf(e).toEqualTypeOf<AgreementRevokedV1Event | AgreementRevokedV2Event>();
      switch (e.version) {
        case 'v1':
          expectTypeOf(e).toEqualTypeOf<EventOf<'agreement.revoked', 'v1'>>();
          expectTypeOf(e.payload).toEqualTypeOf<PayloadOf<'agreement.revoked', 'v1'>>();
          // @ts-expect-error v1 has no account_number
          void e.payload.account_number;
          return `revoked ${e.payload.agreement_id}`;
        case 'v2':
          expectTypeOf(e.payload.account_number).toEqualTypeOf<string>();
          return `revoked ${e.payload.agreement_id} of ${e.payload.account_number}`;
        default:
          expectTypeOf(e).toBeNever();
          return assertNever(e);
      }
    case 'billing.billing_document_representation.dispatched':
      switch (e.version) {
        case 'v1':
        case 'v2':
        case 'v3':
          expectTypeOf(e.version).toEqualTypeOf<'v1' | 'v2' | 'v3'>();
          return e.type;
        default:
          expectTypeOf(e).toBeNever();
          return assertNever(e);
      }
    case 'account.created':
      switch (e.version) {
        case 'v1':
          expectTypeOf(e.payload.account_number).toEqualTypeOf<string>();
          return e.payload.account_number;
        default:
          expectTypeOf(e).toBeNever();
          return assertNever(e);
      }
    default:
      expectTypeOf(e.type).toEqualTypeOf<Exclude<EventType, 'agreement.revoked' | 'billing.billing_document_representation.dispatched' | 'account.created'>>();
      return 'other';
  }
}

function versionSwitchMissingOne(e: EventOf<'agreement.revoked', 'v1'> | EventOf<'agreement.revoked', 'v2'>): string {
  switch (e.version) {
    case 'v1':
      return 'v1';
    default:
      // v2 is not handled, so `e` is not `never` here.
      // @ts-expect-error the v2 event is left over
      return assertNever(e);
  }
}

// The result of validation narrows to a CatalogEvent.
function fromResult(result: ValidationResult): CatalogEvent | undefined {
  if (result.ok) {
    expectTypeOf(result.event).toEqualTypeOf<CatalogEvent>();
    return result.event;
  }
  expectTypeOf(result.error.code).toEqualTypeOf<'malformed_message' | 'unknown_event_type' | 'unknown_event_version' | 'invalid_payload'>();
  expectTypeOf(result.error.issues).toEqualTypeOf<{ path: string; code: string; message: string }[]>();
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// createHandler infers each handler's payload and event from its (type, version).

const handle = createHandler({
  'account.created': {
    v1: (payload, event) => {
      expectTypeOf(payload).toEqualTypeOf<AccountCreatedV1Payload>();
      expectTypeOf(event).toEqualTypeOf<EventOf<'account.created', 'v1'>>();
      expectTypeOf(payload.account_number).toEqualTypeOf<string>();
      // @ts-expect-error no such field on account.created v1
      void payload.no_such_field;
      return payload.account_number.length;
    },
  },
  'agreement.revoked': {
    v2: (payload) => {
      expectTypeOf(payload).toEqualTypeOf<AgreementRevokedV2Payload>();
      return payload.agreement_id;
    },
  },
});
expectTypeOf(handle).toEqualTypeOf<EventHandler<number>>();
expectTypeOf(handle).returns.toEqualTypeOf<number | undefined>();
expectTypeOf(handle.decode).parameter(0).toEqualTypeOf<string | Uint8Array>();

const asyncHandle = createHandler({ 'account.created': { v1: async (payload) => payload.account_number } });
expectTypeOf(asyncHandle).returns.toEqualTypeOf<Promise<string> | undefined>();

// Sync and async handlers together: the result is the union of what they return.
const mixedHandle = createHandler({
  'account.created': { v1: async (payload) => payload.account_number },
  'agreement.revoked': {
    v1: (payload) => {
      void payload;
    },
    v2: (payload) => payload.agreement_id,
  },
});
expectTypeOf(mixedHandle).returns.toEqualTypeOf<Promise<string> | void | AgreementRevokedV2Payload['agreement_id'] | undefined>();
// The result type can still be given.
expectTypeOf(createHandler<string>({ 'account.created': { v1: (payload) => payload.account_number } })).toEqualTypeOf<EventHandler<string>>();

createHandler({
  'account.created': {
    // @ts-expect-error a handler for a version the type does not have
    v2: () => 1,
  },
});

createHandler({
  // @ts-expect-error a handler for a type the catalog does not have
  'no.such.event': { v1: () => 1 },
});

createHandler({
  'agreement.revoked': {
    // @ts-expect-error the v1 payload is not the v2 payload
    v1: (payload: AgreementRevokedV2Payload) => payload.account_number,
  },
});

createHandler(
  { 'account.created': { v1: () => 'text' } },
  {
    onUnknown: (error) => {
      expectTypeOf(error.code).toExtend<string>();
      return 'unknown';
    },
    mode: 'strict',
  },
);

// Only compiled: at run time an unknown mode throws (see create-handler.test.ts).
export const withUnknownMode = (): unknown =>
  createHandler(
    { 'account.created': { v1: () => 'text' } },
    // @ts-expect-error no such mode
    { mode: 'lenient' },
  );

// ---------------------------------------------------------------------------------------------
// createExhaustiveHandler: every (type, version) or it does not compile.

/**
 * A complete map built from the run-time catalog. One cast: the types cannot know that
 * `eventCatalog` lists every (type, version); the run-time test below proves it does.
 */
function buildExhaustive<R>(make: (type: string, version: string) => R): ExhaustiveHandlerMap<R> {
  const map: Record<string, Record<string, (payload: unknown, event: CatalogEvent) => R>> = {};
  for (const { type, version } of eventCatalog) (map[type] ??= {})[version] = () => make(type, version);
  return map as ExhaustiveHandlerMap<R>;
}

const complete: ExhaustiveHandlerMap<string> = buildExhaustive((type, version) => `${type}@${version}`);
const exhaustive = createExhaustiveHandler(complete);
expectTypeOf(exhaustive).toEqualTypeOf<EventHandler<string>>();

// A whole type left out.
const { 'account.created': _accountCreated, ...withoutAccountCreated } = complete;
// @ts-expect-error 'account.created' is missing
createExhaustiveHandler(withoutAccountCreated);

// One version of a type left out.
const { v2: _revokedV2, ...revokedV1Only } = complete['agreement.revoked'];
// @ts-expect-error agreement.revoked v2 is missing
createExhaustiveHandler({ ...complete, 'agreement.revoked': revokedV1Only });

// The same map is fine for createHandler, which does not require every event.
createHandler(withoutAccountCreated);

// An exhaustive map is a HandlerMap; a partial one is not an ExhaustiveHandlerMap.
expectTypeOf<ExhaustiveHandlerMap<string>>().toExtend<HandlerMap<string>>();
expectTypeOf<HandlerMap<string>>().not.toExtend<ExhaustiveHandlerMap<string>>();
expectTypeOf<ExhaustiveHandlerMap<string>['agreement.revoked']['v2']>().toEqualTypeOf<EventHandlerFn<'agreement.revoked', 'v2', string>>();

// @ts-expect-error createExhaustiveHandler has no onUnhandled: nothing can be unhandled
createExhaustiveHandler(complete, { onUnhandled: () => 'never' });

// ---------------------------------------------------------------------------------------------
// parseEvent returns a CatalogEvent; isEvent narrows unknown.

expectTypeOf(parseEvent).returns.toEqualTypeOf<CatalogEvent>();
expectTypeOf(validateEvent).parameter(1).toEqualTypeOf<{ mode?: 'tolerant' | 'strict' } | undefined>();

describe('types (the compile-time checks are enforced by tsc -p .)', () => {
  it('the values built above behave as typed', () => {
    expect(describeEvent(goodEvent)).toBe('A-1');
    expect(describeEvent({ type: 'agreement.revoked', version: 'v2', payload: { agreement_id: 7, account_number: 'A-1' } })).toBe('revoked 7 of A-1');
    expect(versionSwitchMissingOne({ type: 'agreement.revoked', version: 'v1', payload: { agreement_id: 1 } })).toBe('v1');
    expect(exhaustive(goodEvent)).toBe('account.created@v1');
    expect(fromResult(validateEvent(goodEvent))).toBe(goodEvent);
    expect(handle(goodEvent)).toBe(3);
    // The deliberately wrong values exist only to be rejected by the compiler.
    void [wrongFieldType, wrongVersion, missingField, payloadWrongType, asyncHandle];
  });

  it('the programmatically built exhaustive map covers every event', () => {
    expect(Object.keys(complete)).toHaveLength(new Set(eventCatalog.map((e) => e.type)).size);
    for (const { type, version } of eventCatalog) {
      expect((complete as unknown as Record<string, Record<string, () => string>>)[type]![version]!()).toBe(`${type}@${version}`);
    }
  });
});
