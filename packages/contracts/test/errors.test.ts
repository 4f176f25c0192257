import { describe, expect, it } from '@jest/globals';
import { ERRORS, isErrorCode, isRetryable, type ErrorCode } from '../src/index.ts';

const codes = Object.keys(ERRORS) as ErrorCode[];

describe('the error catalogue', () => {
  it('knows its codes and nothing else', () => {
    expect(isErrorCode('milestone_not_found')).toBe(true);
    // The bus's old words are not codes: a service names what is wrong.
    for (const word of ['not_a_code', 'forbidden', 'conflict', 'unavailable', 42, undefined]) {
      expect(isErrorCode(word)).toBe(false);
    }
  });

  it('calls only a service that did not answer worth retrying', () => {
    expect(codes.filter(isRetryable)).toEqual(['service_unavailable']);
  });
});
