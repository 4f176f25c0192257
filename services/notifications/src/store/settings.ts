// Each provider's choice of the kinds of mail it gets. A provider without a document gets all.
import { PROVIDER_MAIL_KINDS, type ProviderMailKind } from '@handoff/contracts';
import type { Store } from '@handoff/store';
import { MAIL_COLLECTIONS } from './collections.ts';

export interface SettingsDoc {
  /** The provider id. */
  _id: string;
  /** Only the kinds a provider changed; the others are on. */
  kinds: Partial<Record<ProviderMailKind, boolean>>;
  updated_at: Date;
}

export type Kinds = Record<ProviderMailKind, boolean>;

export function kindsOf(doc: SettingsDoc | null): Kinds {
  return Object.fromEntries(
    PROVIDER_MAIL_KINDS.map((kind) => [kind, doc?.kinds[kind] ?? true]),
  ) as Kinds;
}

export function mailSettings(store: Store) {
  const collection = store.db.collection<SettingsDoc>(MAIL_COLLECTIONS.settings);
  return {
    collection,
    async kinds(providerId: string): Promise<Kinds> {
      return kindsOf(await collection.findOne({ _id: providerId }));
    },
    /** Sets the named kinds on or off (the others are left as they are); answers all of them. */
    async update(
      providerId: string,
      patch: Partial<Record<ProviderMailKind, boolean>>,
    ): Promise<Kinds> {
      const set = Object.fromEntries(
        Object.entries(patch)
          .filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean')
          .map(([kind, on]) => [`kinds.${kind}`, on]),
      );
      return store.serialize(collection, providerId, async () => {
        const doc = await collection.findOneAndUpdate(
          { _id: providerId },
          { $set: { ...set, updated_at: new Date() } },
          { upsert: true, returnDocument: 'after' },
        );
        return kindsOf(doc);
      });
    },
  };
}
export type MailSettings = ReturnType<typeof mailSettings>;
