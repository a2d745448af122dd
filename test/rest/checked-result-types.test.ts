/**
 * How a call's result narrows now that a response can fail the contract (checked by
 * `npm run typecheck`; each `@ts-expect-error` line fails the type check if the mistake it
 * makes were accepted). Each case is a function of a result that is type-checked, never run.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ApiCallResult, ApiIssue, ApiResponse, ApiStatus } from '../../runtime/rest/index.js';

type NotesResult = ApiCallResult<'createNotes'>;

describe('a call’s result, narrowed', () => {
  it('`error` in result: a request never sent or a response that breaks the contract, both failed', () => {
    const narrow = (result: NotesResult): void => {
      if ('error' in result) {
        expectTypeOf(result.ok).toEqualTypeOf<false>();
        expectTypeOf(result.error.code).toEqualTypeOf<'invalid_request' | 'invalid_response'>();
        expectTypeOf(result.error.issues).toEqualTypeOf<ApiIssue[]>();
        expectTypeOf(result.status).toEqualTypeOf<0 | ApiStatus<'createNotes'>>();
        if (result.status === 0) {
          expectTypeOf(result.error.code).toEqualTypeOf<'invalid_request'>();
          // @ts-expect-error a request that was never sent has no body
          void result.body;
        } else {
          expectTypeOf(result.error.code).toEqualTypeOf<'invalid_response'>();
          expectTypeOf(result.status).toEqualTypeOf<201 | 400 | 404>();
          // The body as received: nothing is promised about it.
          expectTypeOf(result.body).toBeUnknown();
          // @ts-expect-error a body that broke the contract is not typed as the documented one
          void result.body[0];
        }
      }
    };
    expectTypeOf(narrow).parameter(0).toEqualTypeOf<NotesResult>();
  });

  it('without `error`: the documented responses, typed by status, and the undocumented ones', () => {
    const narrow = (result: NotesResult): void => {
      if (!('error' in result)) {
        if (result.unexpected) expectTypeOf(result.body).toBeUnknown();
        else if (result.status === 201) {
          expectTypeOf(result.ok).toEqualTypeOf<true>();
          expectTypeOf(result.body).toEqualTypeOf<ApiResponse<'createNotes', 201>>();
        }
      }
    };
    expectTypeOf(narrow).parameter(0).toEqualTypeOf<NotesResult>();
  });

  it('ok: true is only ever a documented success with its typed body', () => {
    const narrow = (result: NotesResult): void => {
      if (result.ok) {
        expectTypeOf(result.status).toEqualTypeOf<201>();
        expectTypeOf(result.body).toEqualTypeOf<ApiResponse<'createNotes', 201>>();
      }
      // @ts-expect-error an error is only on the failures that have one: narrow with `'error' in result` first
      void result.error;
    };
    expectTypeOf(narrow).parameter(0).toEqualTypeOf<NotesResult>();
  });
});
