import type { AccessCache } from '@handoff/bus';
import { packageVersion, runService, stopInReverse } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { smtpSender, type SmtpSender } from './adapters/smtp.ts';
import { linksOf } from './domain/links.ts';
import { readEnv } from './env.ts';
import { startAccessConsumer } from './handlers/access.consumer.ts';
import { startEventsConsumer } from './handlers/events.consumer.ts';
import { inboxEndpoints } from './handlers/inbox.ts';
import { announceChange, providerDirectory, type Reader } from './handlers/lookups.ts';
import { postman } from './handlers/mail.ts';
import { countFromZero } from './handlers/mail-metrics.ts';
import { reminders, startReminderConsumer } from './handlers/reminders.consumer.ts';
import { settingsEndpoints } from './handlers/settings.ts';
import { signInEndpoints } from './handlers/sign-in.ts';
import { addressBook } from './store/addresses.ts';
import { collections } from './store/collections.ts';
import { hourOf, mailLog } from './store/mail-log.ts';

export const VERSION = packageVersion(import.meta.url);

const PRUNE_EVERY_MS = 10 * 60 * 1000;
const PRUNE_FIRST_MS = 60 * 1000;
/** Expiry hours looked at by each periodic run: a few missed runs are caught up. */
const PRUNE_LOOKBACK_HOURS = 3;

export async function bootstrap(options: BootstrapOptions = {}) {
  const env = readEnv(options.env);
  countFromZero();
  const links = linksOf(env.PUBLIC_URL);
  const signingKey = Buffer.from(env.NOTIFICATIONS_SIGNING_KEY, 'base64');
  const staffAddresses = env.STAFF_NOTIFY_EMAIL ?? [];
  // One of each per process, shared by the operations and the consumers.
  let smtp: SmtpSender | undefined;
  let providers: AccessCache<Reader> | undefined;
  let signIn: ReturnType<typeof signInEndpoints> | undefined;
  try {
    return await runService({
      name: 'notifications',
      version: VERSION,
      description: 'Email to providers and staff, and the providers’ unread counts.',
      env,
      collections,
      endpoints: ({ store, bus, logger }) => {
        smtp = smtpSender(env);
        providers = providerDirectory(bus, store);
        signIn = signInEndpoints({
          logger,
          smtp,
          links,
          addresses: addressBook(store),
          announce: (ids) => announceChange(bus, ids),
        });
        return {
          ...signIn.endpoints,
          ...settingsEndpoints({
            store,
            providers,
            signingKey,
            announce: (ids) => announceChange(bus, ids),
          }),
          ...inboxEndpoints({ store }),
        };
      },
      background: async ({ bus, store, logger }) => {
        if (!smtp || !providers) throw new Error('the endpoints are built before the background');
        const mail = postman({
          store,
          logger,
          smtp,
          links,
          signingKey,
          providers,
          staffAddresses,
          announce: (ids) => announceChange(bus, ids),
        });
        const deadlines = reminders({
          bus,
          store,
          logger,
          replicas: env.NATS_STREAM_REPLICAS,
          beforeMs: env.REMINDER_BEFORE_MS,
        });
        const stopReminders = await startReminderConsumer({
          bus,
          logger,
          postman: mail,
          reminders: deadlines,
        });
        const stopEvents = await startEventsConsumer({
          bus,
          logger,
          postman: mail,
          reminders: deadlines,
          concurrency: env.MAIL_CONCURRENCY,
        });
        const stopAccess = await startAccessConsumer({ bus, logger, postman: mail });

        const log = mailLog(store);
        let pruning: Promise<unknown> = Promise.resolve();
        const prune = (hours: () => number[]) => {
          pruning = pruning
            .then(() => log.prune(hours()))
            .catch((error: unknown) => logger.warn({ err: error }, 'mail log not pruned'));
        };
        const lastHours = (count: number) => {
          const now = hourOf(new Date());
          return Array.from({ length: count }, (_, i) => now - i);
        };
        // The first run, a while after the start, catches up on a day a stopped service missed.
        const catchUp = setTimeout(() => prune(() => lastHours(24)), PRUNE_FIRST_MS);
        catchUp.unref();
        const pruner = setInterval(
          () => prune(() => lastHours(PRUNE_LOOKBACK_HOURS)),
          PRUNE_EVERY_MS,
        );
        pruner.unref();

        return stopInReverse(
          async () => {
            await signIn?.stop();
            providers?.stop();
            smtp?.close();
          },
          stopReminders,
          stopEvents,
          stopAccess,
          async () => {
            clearTimeout(catchUp);
            clearInterval(pruner);
            await pruning;
          },
        );
      },
      logger: options.logger,
    });
  } catch (error) {
    smtp?.close();
    providers?.stop();
    throw error;
  }
}
