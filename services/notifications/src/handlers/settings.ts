// `settings.get`, `settings.update`, `settings.unsubscribe`: which kinds of mail a provider gets.
import { BusError, implement, type AccessCache, type Endpoint } from '@handoff/bus';
import {
  notificationOps,
  PROVIDER_MAIL_KIND_LABELS,
  type NotificationSettings,
} from '@handoff/contracts';
import type { Store } from '@handoff/store';
import { verifyUnsubscribe } from '../domain/unsubscribe.ts';
import { mailSettings, type Kinds } from '../store/settings.ts';
import type { Reader } from './lookups.ts';

export function settingsEndpoints(deps: {
  store: Store;
  providers: AccessCache<Reader>;
  signingKey: Buffer;
  /** Tells every replica that these providers' settings changed (see `announceChange`). */
  announce(providerIds: readonly string[]): Promise<void>;
}): Record<string, Endpoint> {
  const settings = mailSettings(deps.store);

  const providerOf = async (id: string, callId: string | null) => {
    const provider = await deps.providers.lookup(id, callId ?? undefined);
    if (!provider) throw new BusError('provider_not_found', 'No such provider.');
    return provider;
  };
  const view = (provider: Reader, kinds: Kinds): NotificationSettings => ({
    object: 'notification_settings',
    email: provider.email,
    email_status: provider.bouncing ? 'bouncing' : 'ok',
    kinds,
  });

  return {
    ...implement(notificationOps.settings, async ({ provider_id }, ctx) => {
      const provider = await providerOf(provider_id, ctx.callId);
      return view(provider, provider.kinds);
    }),
    ...implement(notificationOps.updateSettings, async ({ provider_id, patch }, ctx) => {
      const provider = await providerOf(provider_id, ctx.callId);
      const kinds = await settings.update(provider_id, patch.kinds);
      await deps.announce([provider_id]);
      return view(provider, kinds);
    }),
    // The link is the credential: whoever holds the mail may turn that one kind off, no more.
    ...implement(notificationOps.unsubscribe, async ({ token }) => {
      const claim = verifyUnsubscribe(deps.signingKey, token);
      if (!claim) {
        throw new BusError(
          'unsubscribe_link_invalid',
          'This unsubscribe link is not one of ours, or was cut short; open it from the email again.',
        );
      }
      await settings.update(claim.providerId, { [claim.kind]: false });
      await deps.announce([claim.providerId]);
      return {
        object: 'unsubscribe' as const,
        kind: claim.kind,
        description: PROVIDER_MAIL_KIND_LABELS[claim.kind],
        subscribed: false as const,
      };
    }),
  };
}
