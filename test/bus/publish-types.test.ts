/**
 * `publishEvent` takes catalog events only, on both brokers: checked by the compiler (this
 * file is part of `tsc -p .`, which `npm test` runs first; a `@ts-expect-error` on a line that
 * compiles is itself an error), so a producer's misspelt field or wrong version never
 * compiles. Nothing here talks to a broker: the calls are in functions never run.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Redis } from 'ioredis';
import { expect, expectTypeOf, it } from 'vitest';
import type { CatalogEvent, EventOf } from '../../runtime/index.js';
import { publishEvent as publishNats } from '../../runtime/nats/index.js';
import { publishEvent as publishRedis } from '../../runtime/redis-streams/index.js';

declare const js: JetStreamClient;
declare const redis: Redis;

export function producers(): void {
  // A catalog event, written inline: compiles, with no cast.
  void publishNats(js, { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } }, { msgId: 'A-1' });
  void publishRedis(redis, { type: 'agreement.revoked', version: 'v2', payload: { agreement_id: 7, account_number: 'A-1' } }, { stream: 'events' });

  // A misspelt payload field.
  // @ts-expect-error `acount_number` is not a field of account.created v1
  void publishNats(js, { type: 'account.created', version: 'v1', payload: { acount_number: 'A-1', account_user_emails: [] } });
  // @ts-expect-error `acount_number` is not a field of account.created v1
  void publishRedis(redis, { type: 'account.created', version: 'v1', payload: { acount_number: 'A-1', account_user_emails: [] } }, { stream: 'events' });

  // A version the type does not have.
  // @ts-expect-error account.created has no v9
  void publishNats(js, { type: 'account.created', version: 'v9', payload: { account_number: 'A-1', account_user_emails: [] } });
  // @ts-expect-error account.created has no v9
  void publishRedis(redis, { type: 'account.created', version: 'v9', payload: { account_number: 'A-1', account_user_emails: [] } }, { stream: 'events' });

  // v2's field on v1: the union is keyed on type and version, so each version has its own payload.
  // @ts-expect-error agreement.revoked v1 has no account_number
  void publishNats(js, { type: 'agreement.revoked', version: 'v1', payload: { agreement_id: 7, account_number: 'A-1' } });

  // A required field missing.
  // @ts-expect-error account_user_emails is required
  void publishRedis(redis, { type: 'account.created', version: 'v1', payload: { account_number: 'A-1' } }, { stream: 'events' });

  // Anything typed only as unknown data needs validating first (parseEvent, or a cast the caller answers for).
  const fromElsewhere: unknown = {};
  // @ts-expect-error unknown is not a CatalogEvent
  void publishNats(js, fromElsewhere);
}

it('takes the CatalogEvent union on both brokers', () => {
  expectTypeOf(publishNats).parameter(1).toEqualTypeOf<CatalogEvent>();
  expectTypeOf(publishRedis).parameter(1).toEqualTypeOf<CatalogEvent>();
  expectTypeOf<EventOf<'account.created', 'v1'>>().toMatchTypeOf<Parameters<typeof publishNats>[1]>();
  expect(typeof producers).toBe('function');
});
