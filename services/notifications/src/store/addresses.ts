// Addresses mail does not reach: a 5xx (refused for good) marks one `bouncing`, and mail to it is
// held back until a later mail to it is accepted. Keyed by the lowercased address, so a provider
// whose address changes is clear at once.
import { emailKey } from '@handoff/contracts';
import type { Store } from '@handoff/store';
import { MAIL_COLLECTIONS } from './collections.ts';

export interface AddressDoc {
  /** The lowercased address. */
  _id: string;
  status: 'bouncing';
  since: Date;
  /** The SMTP server's reply code, and its words (never the mail). */
  code: number | null;
  reason: string;
}

export function addressBook(store: Store) {
  const collection = store.db.collection<AddressDoc>(MAIL_COLLECTIONS.addresses);
  return {
    collection,
    async bouncing(address: string): Promise<boolean> {
      return (await collection.findOne({ _id: emailKey(address) })) !== null;
    },
    async markBouncing(address: string, code: number | null, reason: string): Promise<void> {
      const _id = emailKey(address);
      await store.serialize(collection, _id, () =>
        collection.updateOne(
          { _id },
          { $set: { status: 'bouncing', code, reason }, $setOnInsert: { since: new Date() } },
          { upsert: true },
        ),
      );
    },
    async clear(address: string): Promise<void> {
      const _id = emailKey(address);
      await store.serialize(collection, _id, () => collection.deleteOne({ _id }));
    },
  };
}
export type AddressBook = ReturnType<typeof addressBook>;
