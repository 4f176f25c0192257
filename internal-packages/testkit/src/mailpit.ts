import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import { findBinary, stopper, waitForPort } from './servers.ts';

/** The Mailpit release that `npm run setup` builds (keep in step with scripts/setup.sh). */
export const MAILPIT_VERSION = 'v1.33.1';

/** A running Mailpit: an SMTP server that keeps every mail, with a web UI and an HTTP API. */
export interface Mailpit {
  /** Where services hand mail: `smtp://127.0.0.1:<port>` (no TLS, any or no credentials). */
  smtpUrl: string;
  /** The web UI and API: `http://127.0.0.1:<port>` (the API under `/api/v1`). */
  url: string;
  source: 'env' | 'binary';
  /** Kills it at once (SIGKILL), as an outage; `start` again is a new one. */
  kill(): void;
  stop(): Promise<void>;
}

export interface MailpitOptions {
  /** Where its log (and, with `database`, its messages) go. */
  dataDir: string;
  /** Keep the messages in this file across restarts; in a temporary file by default. */
  database?: string;
  /** Fixed ports (a restart on the same addresses); free ones when omitted. */
  smtpPort?: number;
  httpPort?: number;
  /** Messages kept (oldest pruned past it); 0 keeps all. Default 0. */
  maxMessages?: number;
  /** Lets tests make it refuse (`PUT /api/v1/chaos`). Default true. */
  chaos?: boolean;
  /** Reads MAILPIT_URL and MAILPIT_SMTP_URL from here first; `process.env` by default. */
  env?: Record<string, string | undefined>;
  binDirs?: readonly string[];
}

const HOW_TO_GET_IT = [
  'Handoff needs Mailpit (github.com/axllent/mailpit), the SMTP server its mail goes to locally.',
  'Any one of these provides it:',
  `  1. run \`npm run setup\`, which builds mailpit ${MAILPIT_VERSION} into .tools/bin with Go;`,
  `  2. \`go install github.com/axllent/mailpit@${MAILPIT_VERSION}\` and put it on PATH;`,
  '  3. set MAILPIT_URL (its web/API address) and MAILPIT_SMTP_URL (smtp://host:port) to one you run.',
].join('\n');

export class MailpitUnavailableError extends Error {
  constructor(detail: string) {
    super(`Mailpit is not available: ${detail}\n${HOW_TO_GET_IT}`);
    this.name = 'MailpitUnavailableError';
  }
}

/**
 * Starts Mailpit on loopback: SMTP for the services, HTTP for its UI and API. A missing binary
 * fails with instructions, on CI and everywhere else: a mail test never skips.
 */
export async function startMailpit(options: MailpitOptions): Promise<Mailpit> {
  const env = options.env ?? process.env;
  if (env.MAILPIT_URL && env.MAILPIT_SMTP_URL) {
    return {
      smtpUrl: env.MAILPIT_SMTP_URL,
      url: env.MAILPIT_URL.replace(/\/+$/, ''),
      source: 'env',
      kill: () => undefined,
      stop: async () => {},
    };
  }
  const binary = await findBinary(['mailpit'], options.binDirs);
  if (!binary) {
    throw new MailpitUnavailableError(
      `no mailpit binary in ${options.binDirs ? 'the given folders' : '.tools/bin or on PATH'}${env.CI === 'true' ? ' (CI)' : ''}.`,
    );
  }
  const smtpPort = options.smtpPort ?? (await freePort());
  const httpPort = options.httpPort ?? (await freePort());
  const args = [
    '--smtp',
    `127.0.0.1:${smtpPort}`,
    '--listen',
    `127.0.0.1:${httpPort}`,
    '--max',
    String(options.maxMessages ?? 0),
    '--smtp-auth-accept-any',
    '--smtp-auth-allow-insecure',
    '--smtp-disable-rdns',
    '--disable-version-check',
    ...(options.database ? ['--database', options.database] : []),
    ...((options.chaos ?? true) ? ['--enable-chaos'] : []),
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A test process that dies without stopping it must not leave it running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  try {
    await waitForPort('mailpit', child, httpPort, options.dataDir);
    await waitForPort('mailpit-smtp', child, smtpPort, join(options.dataDir, 'mailpit-smtp'));
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    url: `http://127.0.0.1:${httpPort}`,
    source: 'binary',
    kill: () => child.kill('SIGKILL'),
    stop: stopper(child),
  };
}

/** One mail as Mailpit's list and search answer it. */
export interface MailSummary {
  ID: string;
  MessageID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  Subject: string;
  Created: string;
  Snippet: string;
}

/**
 * One whole mail: its parts, as Mailpit's `GET /api/v1/message/{ID}` answers it (which names its
 * time `Date`, where a summary says `Created`).
 */
export interface MailMessage extends Omit<MailSummary, 'Created' | 'Snippet'> {
  Date: string;
  Text: string;
  HTML: string;
}

/** A client of Mailpit's API, for tests, the bench and the README's walkthrough. */
export function mailpitClient(url: string) {
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${url}/api/v1${path}`, init);
    if (!res.ok) throw new Error(`Mailpit ${init.method ?? 'GET'} ${path}: HTTP ${res.status}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    /** The newest mails first (at most `limit`). */
    messages: (limit = 500) =>
      api<{ total: number; messages: MailSummary[] }>(`/messages?limit=${limit}`),
    /** Mailpit's search syntax, e.g. `to:"ada@example.com" subject:"signed in"`. */
    search: (query: string, limit = 500) =>
      api<{ total: number; messages: MailSummary[] }>(
        `/search?query=${encodeURIComponent(query)}&limit=${limit}`,
      ),
    message: (id: string) => api<MailMessage>(`/message/${encodeURIComponent(id)}`),
    headers: (id: string) =>
      api<Record<string, string[]>>(`/message/${encodeURIComponent(id)}/headers`),
    deleteAll: () => api<unknown>('/messages', { method: 'DELETE' }),
    /** Mailpit's counters, among them `RuntimeStats.SMTPAccepted`: every mail it took. */
    info: () =>
      api<{ Messages: number; RuntimeStats: { SMTPAccepted: number; SMTPRejected: number } }>(
        '/info',
      ),
    /** Makes the SMTP server refuse (`{ Recipient: { ErrorCode: 550, Probability: 100 } }`). */
    chaos: (triggers: Partial<Record<'Sender' | 'Recipient' | 'Authentication', ChaosTrigger>>) =>
      api<unknown>('/chaos', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(triggers),
      }),
  };
}

export interface ChaosTrigger {
  ErrorCode: number;
  /** Percent, 0-100. */
  Probability: number;
}

export type MailpitClient = ReturnType<typeof mailpitClient>;
