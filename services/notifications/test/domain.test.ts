// The pure rules: signed unsubscribe links, how times and money are said, the layout's escaping,
// what an SMTP failure means.
import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { classifyFailure, mailDomain } from '../src/adapters/smtp.ts';
import { reminderDueAt, remindable } from '../src/domain/deadlines.ts';
import { renderMail } from '../src/domain/render.ts';
import { signUnsubscribe, verifyUnsubscribe } from '../src/domain/unsubscribe.ts';
import { deadlineInWords, moneyInWords, shortened, timeLeft } from '../src/domain/wording.ts';

describe('unsubscribe tokens', () => {
  const key = randomBytes(32);

  it('name one provider and one kind, and verify only under their key', () => {
    const token = signUnsubscribe(key, { providerId: 'prv_abc', kind: 'message_received' });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyUnsubscribe(key, token)).toEqual({
      providerId: 'prv_abc',
      kind: 'message_received',
    });
    expect(verifyUnsubscribe(randomBytes(32), token)).toBeNull();
  });

  it('refuse a payload changed under the signature, a cut signature and nonsense', () => {
    const token = signUnsubscribe(key, { providerId: 'prv_abc', kind: 'message_received' });
    const [, signature] = token.split('.');
    const forged = `${Buffer.from('prv_other:message_received').toString('base64url')}.${signature}`;
    expect(verifyUnsubscribe(key, forged)).toBeNull();
    expect(verifyUnsubscribe(key, token.slice(0, -2))).toBeNull();
    expect(verifyUnsubscribe(key, 'a.b.c')).toBeNull();
    expect(verifyUnsubscribe(key, '')).toBeNull();
    // A signed payload naming a kind that is not one is refused too.
    const odd = signUnsubscribe(key, { providerId: 'prv_abc', kind: 'sign_in' as never });
    expect(verifyUnsubscribe(key, odd)).toBeNull();
  });
});

describe('wording', () => {
  const now = new Date('2026-12-05T14:00:00Z');

  it('says every deadline with its time left and its date in UTC', () => {
    expect(deadlineInWords(new Date('2026-12-08T14:00:00Z'), now)).toBe(
      'in 3 days, on Tue 8 Dec at 14:00 UTC',
    );
    expect(timeLeft(new Date('2026-12-06T13:00:00Z'), now)).toBe('in 23 hours');
    expect(timeLeft(new Date('2026-12-05T14:20:30Z'), now)).toBe('in 20 minutes');
    expect(timeLeft(new Date('2026-12-05T14:00:30Z'), now)).toBe('in less than a minute');
    expect(timeLeft(new Date('2026-12-05T12:00:00Z'), now)).toBe('2 hours ago');
  });

  it('says money as a bank would, and cuts long titles at a word', () => {
    expect(moneyInWords(1250, 'EUR')).toBe('€1,250.00');
    expect(moneyInWords(5, 'XYZ1')).toBe('5 XYZ1');
    expect(shortened('Fix   the\nkitchen tap that drips all night long', 30)).toBe(
      'Fix the kitchen tap that…',
    );
  });
});

describe('the layout', () => {
  it('escapes everything in the HTML part and keeps subjects on one line', () => {
    const rendered = renderMail(
      {
        subject: 'Hi\r\nBcc: x@example.com',
        greeting: 'Hello <script>,',
        paragraphs: ['A & B "quoted"'],
        quote: "<img src=x onerror='1'>",
        action: { label: 'Open', url: 'https://handoff.test/workspace/requests/req_1?a=1&b="2"' },
      },
      {
        unsubscribe: { url: 'https://handoff.test/workspace/unsubscribe#token=a', kindLabel: 'X' },
      },
    );
    expect(rendered.subject).toBe('Hi Bcc: x@example.com');
    expect(rendered.html).not.toContain('<script>');
    expect(rendered.html).not.toContain('<img');
    expect(rendered.html).toContain('Hello &lt;script&gt;,');
    expect(rendered.html).toContain('A &amp; B &quot;quoted&quot;');
    expect(rendered.html).toContain(
      'href="https://handoff.test/workspace/requests/req_1?a=1&amp;b=&quot;2&quot;"',
    );
    expect(rendered.html).toContain('max-width:600px');
    expect(rendered.text).toContain("> <img src=x onerror='1'>");
    expect(rendered.text).toContain(
      'Stop these mails: https://handoff.test/workspace/unsubscribe#token=a',
    );
  });
});

describe('SMTP failures', () => {
  it('are final only for a 5xx reply', () => {
    expect(classifyFailure({ responseCode: 550, response: '550 5.1.1 no such user' })).toEqual({
      outcome: 'refused',
      code: 550,
      reason: '550 5.1.1 no such user',
    });
    expect(classifyFailure({ responseCode: 451, response: '451 try later' }).outcome).toBe(
      'deferred',
    );
    expect(classifyFailure({ code: 'ECONNECTION', message: 'connect ECONNREFUSED' })).toEqual({
      outcome: 'deferred',
      code: null,
      reason: 'ECONNECTION: connect ECONNREFUSED',
    });
    expect(classifyFailure(new Error('Greeting never received')).outcome).toBe('deferred');
  });

  it('mark the recipient only for a 5xx about it, not for one refusing our credentials or sender', () => {
    const reply = (command: string, response: string) => ({
      code: 'EENVELOPE',
      command,
      response,
      responseCode: Number(response.slice(0, 3)),
    });
    expect(classifyFailure(reply('RCPT TO', '550 5.1.1 no such user')).outcome).toBe('refused');
    expect(classifyFailure(reply('DATA', '554 5.2.2 mailbox full')).outcome).toBe('refused');
    expect(classifyFailure(reply('MAIL FROM', '550 5.7.1 sender not allowed'))).toEqual({
      outcome: 'deferred',
      code: 550,
      reason: 'MAIL FROM: 550 5.7.1 sender not allowed',
      sender: true,
    });
    expect(
      classifyFailure({ ...reply('AUTH PLAIN', '535 5.7.8 bad credentials'), code: 'EAUTH' }),
    ).toMatchObject({ outcome: 'deferred', code: 535, sender: true });
  });

  it('take the Message-ID domain from MAIL_FROM', () => {
    expect(mailDomain('Handoff <no-reply@mail.example.com>')).toBe('mail.example.com');
    expect(mailDomain('ops@example.org')).toBe('example.org');
  });
});

describe('reminders', () => {
  const now = new Date('2026-12-05T14:00:00Z');
  it('go ahead of the deadline, or at once when that is past', () => {
    const deadline = new Date('2026-12-08T14:00:00Z');
    expect(reminderDueAt(deadline, 24 * 3_600_000, now)).toBe(Date.parse('2026-12-07T14:00:00Z'));
    expect(reminderDueAt(deadline, 7 * 24 * 3_600_000, now)).toBe(now.getTime());
  });

  it('are for what waits on the provider by a deadline', () => {
    const base = { providerId: 'prv_1', deadlineAt: now };
    expect(remindable({ ...base, resource: 'milestone', status: 'open' })).toBe(true);
    expect(remindable({ ...base, resource: 'milestone', status: 'changes_requested' })).toBe(true);
    expect(remindable({ ...base, resource: 'milestone', status: 'submitted' })).toBe(false);
    expect(remindable({ ...base, resource: 'dispute', status: 'open' })).toBe(true);
    expect(remindable({ ...base, resource: 'dispute', status: 'under_review' })).toBe(false);
    expect(remindable({ ...base, deadlineAt: null, resource: 'milestone', status: 'open' })).toBe(
      false,
    );
  });
});
