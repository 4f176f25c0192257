import { describe, expect, it } from '@jest/globals';
import { PROVIDER_MAIL_KIND_LABELS, PROVIDER_MAIL_KINDS } from '@handoff/contracts';
import { ago, due, preciseSpan, span, urgency } from '../src/time.ts';
import { budget, category, languageName, languages, money, title, webLink } from '../src/words.ts';

// The workspace's words, without a browser: every kind of mail has its label (from the
// contracts, as the mails use it), and times and amounts read as people write them.

const NOW = Date.parse('2026-12-05T12:00:00Z');
const later = (ms: number) => new Date(NOW + ms).toISOString();
const HOUR = 3_600_000;

describe('the words the workspace shows', () => {
  it('has a label for every kind of email a provider may turn off, and for no other', () => {
    expect(Object.keys(PROVIDER_MAIL_KIND_LABELS)).toEqual([...PROVIDER_MAIL_KINDS]);
  });

  it('says how long is left before a deadline, and how late one is', () => {
    expect(due(later(3 * 24 * HOUR), NOW)).toMatch(/^due in 3 days \(Tue 8 Dec\)$/);
    expect(due(later(-2 * HOUR), NOW)).toMatch(/^overdue by 2 hours \(Sat 5 Dec, \d\d:\d\d\)$/);
    expect(due(later(45 * 60_000), NOW)).toMatch(/^due in 45 minutes /);
    expect(due(later(-26 * HOUR), NOW, { ahead: 'expires in', past: 'expired ago' })).toMatch(
      /^expired 26 hours ago \(Fri 4 Dec, \d\d:\d\d\)$/,
    );
    expect(span(90 * 60_000)).toBe('2 hours');
    expect(span(1)).toBe('less than a minute');
    expect(urgency(later(-1), NOW)).toBe('overdue');
    expect(urgency(later(HOUR), NOW)).toBe('soon');
    expect(urgency(later(48 * HOUR), NOW)).toBe('later');
    expect(ago(later(-5_000), NOW)).toBe('just now');
    expect(ago(later(-3 * 24 * HOUR), NOW)).toBe('3 days ago');
  });

  it('reads the time left to answer an offer to the minute, never more than is left', () => {
    const answer = { ahead: 'answer within', past: 'the time to answer ended ago', precise: true };
    expect(due(later(80 * 60_000), NOW, answer)).toMatch(
      /^answer within 1 hour 20 minutes \(Sat 5 Dec, \d\d:\d\d\)$/,
    );
    expect(due(later(-5 * 60_000), NOW, answer)).toMatch(
      /^the time to answer ended 5 minutes ago \(/,
    );
    expect(preciseSpan(2 * HOUR - 1)).toBe('1 hour 59 minutes');
    expect(preciseSpan(2 * HOUR)).toBe('2 hours');
    expect(preciseSpan(45 * 60_000 + 59_000)).toBe('45 minutes');
    expect(preciseSpan(26 * HOUR + 30 * 60_000)).toBe('1 day 2 hours');
    expect(preciseSpan(59_000)).toBe('less than a minute');
  });

  it('reads the languages a provider types as BCP 47 tags, and names them', () => {
    expect(languages('en, pt-br  de;EN')).toEqual({ tags: ['en', 'pt-BR', 'de'] });
    expect(languages('pt_BR')).toEqual({ tags: ['pt-BR'] });
    expect(languages('   ')).toEqual({ tags: [] });
    expect(languages('en, English')).toEqual({ wrong: 'English' });
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(languageName('en')).toBe('English');
  });

  it('writes amounts, budgets, categories and titles for people', () => {
    expect(money(1200, 'USD')).toBe('$1,200.00');
    expect(money(95.5, 'EUR')).toBe('€95.50');
    expect(money(500, 'JPY')).toBe('¥500');
    expect(budget(80, 150)).toBe('80 to 150');
    expect(budget(null, 150)).toBe('up to 150');
    expect(budget(null, null)).toBeNull();
    expect(category('home-services')).toBe('Home services');
    expect(title({ subject: null, message: `${'a'.repeat(100)}\nmore` })).toHaveLength(78);
    expect(title({ subject: 'Tap', message: 'x' })).toBe('Tap');
  });

  it('follows only web links', () => {
    expect(webLink('https://example.com/x')).toBe(true);
    expect(webLink('javascript:alert(1)')).toBe(false);
    expect(webLink('data:text/html,x')).toBe(false);
  });
});
