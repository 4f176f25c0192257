// One layout for every mail: a text part and an HTML part saying the same, one button (the one link
// into the workspace or the console), and for a provider's kinds a line to turn that kind off.

/** What a mail says, before it is laid out. Every string is plain text: rendering escapes it. */
export interface MailContent {
  subject: string;
  /** The first line, e.g. "Hello Ada,". */
  greeting: string;
  paragraphs: readonly string[];
  /** Words quoted from a person (a message, a reason), shown set apart. */
  quote?: string;
  action: { label: string; url: string };
}

export interface RenderOptions {
  /** The unsubscribe link of this kind, and what the kind is (PROVIDER_MAIL_KIND_LABELS). */
  unsubscribe?: { url: string; kindLabel: string };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Subjects are one line: a header cannot carry a line break. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

const FONT = 'font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif';

export function renderMail(content: MailContent, options: RenderOptions = {}): RenderedMail {
  const subject = oneLine(content.subject);
  const { action } = content;
  const { unsubscribe } = options;

  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.quote ? [...content.quote.split('\n').map((line) => `> ${line}`), ''] : []),
    `${action.label}: ${action.url}`,
    '',
    '— Handoff',
    ...(unsubscribe
      ? [
          '',
          `You get this mail because “${unsubscribe.kindLabel}” is on in your notification settings.`,
          `Stop these mails: ${unsubscribe.url}`,
        ]
      : []),
    '',
  ].join('\n');

  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2328">${escapeHtml(p)}</p>`;
  const quote = content.quote
    ? `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:4px solid #d0d7de;color:#424a53;font-size:15px;line-height:1.5;white-space:pre-wrap">${escapeHtml(content.quote)}</blockquote>`
    : '';
  const footer = unsubscribe
    ? `<p style="margin:24px 0 0;font-size:13px;line-height:1.5;color:#59636e">You get this mail because “${escapeHtml(unsubscribe.kindLabel)}” is on in your notification settings. <a href="${escapeHtml(unsubscribe.url)}" style="color:#59636e">Stop these mails</a>.</p>`
    : '';
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f6f8fa;${FONT}">`,
    '<div style="max-width:600px;margin:0 auto;padding:24px 16px">',
    '<div style="background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">',
    paragraph(content.greeting),
    ...content.paragraphs.map(paragraph),
    quote,
    `<p style="margin:24px 0 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;font-size:16px;font-weight:600;padding:12px 20px;border-radius:6px">${escapeHtml(action.label)}</a></p>`,
    '</div>',
    `<p style="margin:16px 0 0;font-size:13px;color:#59636e">— Handoff</p>`,
    footer,
    '</div></body></html>',
  ].join('\n');

  return { subject, text, html };
}
