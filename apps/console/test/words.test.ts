import { describe, expect, it } from '@jest/globals';
import { AUTO_ROUTING_STATES, QueueReason, REQUEST_STATUSES } from '@handoff/contracts';
import { filterQuery, NO_FILTERS, parseFilters } from '../src/filters.ts';
import { ago, answerWithin, seconds, span } from '../src/time.ts';
import {
  excludedText,
  QUEUE_REASON_WORDS,
  REQUEST_STATUS_WORDS,
  ROUTING_STATE_WORDS,
} from '../src/words.ts';

// The console's words for routing, without a browser: every state and reason has words, times
// read as people say them, and the Requests screen's filters become the staff API's query.

const NOW = Date.parse('2026-12-05T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the words of routing in the console', () => {
  it('has words for every request status, routing state and queue reason, and for no other', () => {
    expect(Object.keys(REQUEST_STATUS_WORDS)).toEqual([...REQUEST_STATUSES]);
    expect(Object.keys(ROUTING_STATE_WORDS)).toEqual([...AUTO_ROUTING_STATES]);
    expect(Object.keys(QUEUE_REASON_WORDS)).toEqual(QueueReason.options);
  });

  it('says the time left to answer an offer, and how old a request is', () => {
    expect(answerWithin(at(HOUR + 20 * MINUTE), NOW)).toBe('answers within 1 h 20 min');
    expect(answerWithin(at(45_000), NOW)).toBe('answers within 45 s');
    expect(answerWithin(at(0), NOW)).toBe('lapsed');
    expect(answerWithin(at(-MINUTE), NOW)).toBe('lapsed');
    expect(ago(at(-2 * HOUR), NOW)).toBe('2 h ago');
    expect(ago(at(-3 * 24 * HOUR - 4 * HOUR), NOW)).toBe('3 d 4 h ago');
    expect(ago(at(-5_000), NOW)).toBe('just now');
    expect(span(5 * MINUTE + 10_000)).toBe('5 min 10 s');
    expect(seconds(7200)).toBe('2 h');
    expect(seconds(90)).toBe('1 min 30 s');
  });

  it('counts the providers passed over in words', () => {
    expect(excludedText({ away: 2, at_capacity: 1, suspended: 0 })).toBe('2 away, 1 at capacity');
    expect(excludedText({})).toBeNull();
  });

  it("turns the Requests screen's filters into the API's query, ages into creation times", () => {
    const filters = parseFilters('routing_state=queued&category=design&age=older-1d');
    expect(filters).toEqual({
      status: '',
      routing_state: 'queued',
      category: 'design',
      age: 'older-1d',
    });
    expect(filterQuery(filters, NOW)).toEqual({
      status: '',
      routing_state: 'queued',
      category: 'design',
      created_after: undefined,
      created_before: at(-24 * HOUR),
    });
    // The counts of each chip row leave out that row's own filter.
    expect(filterQuery(filters, NOW, ['routing_state']).routing_state).toBeUndefined();
    expect(filterQuery({ ...NO_FILTERS, age: 'newer-1h' }, NOW).created_after).toBe(at(-HOUR));
    expect(parseFilters('age=forever').age).toBe('');
  });
});
