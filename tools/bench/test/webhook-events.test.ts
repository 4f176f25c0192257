import { describe, expect, it } from '@jest/globals';
import { EventEnvelope, RequestCreate } from '@handoff/contracts';
import {
  deliveredRequestId,
  endpointIndex,
  endpointPath,
  EVENT_INPUT,
  sampleEnvelope,
} from '../src/fixtures/webhook-events.ts';

describe('the receiver paths', () => {
  it('name the endpoint they belong to', () => {
    for (const index of [0, 1, 9, 10, 99, 12_345]) {
      expect(endpointIndex(endpointPath(index))).toBe(index);
    }
  });

  it('are nothing else', () => {
    for (const path of [
      '/',
      '/hook',
      '/hook/',
      '/hook/01',
      '/hook/-1',
      '/hook/1/x',
      '/hook/1?a',
      '/x/1',
    ]) {
      expect(endpointIndex(path)).toBeNull();
    }
  });
});

describe('the events', () => {
  it('are made from a valid create payload', () => {
    expect(RequestCreate.safeParse(EVENT_INPUT).success).toBe(true);
  });

  it('have a raw-POST twin that is an event envelope of about 1 KiB', () => {
    const body = sampleEnvelope();
    const parsed = EventEnvelope.safeParse(JSON.parse(body));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.type).toBe('request.created');
    expect(Buffer.byteLength(body)).toBeGreaterThan(900);
    expect(Buffer.byteLength(body)).toBeLessThan(1_300);
  });

  it('name their request', () => {
    expect(deliveredRequestId(sampleEnvelope())).toBe('req_01JBENCHRAWHTTPPOST0000000');
    expect(() => deliveredRequestId('{"data":{}}')).toThrow(/without data.request_id/);
    expect(() => deliveredRequestId('[]')).toThrow(/without data.request_id/);
    expect(() => deliveredRequestId('not json')).toThrow();
  });
});
