import type {
  Application,
  ApplicationStatus,
  Integration,
  KeySummary,
  Scope,
} from '@handoff/contracts';
import type { OutboxFields } from '@handoff/runtime';
import { keyStatus } from '../domain/access.ts';

export interface ApplicationDoc extends OutboxFields {
  _id: string;
  status: ApplicationStatus;
  app_name: string;
  description: string;
  contact_email: string;
  website: string | null;
  requested_scopes: Scope[];
  granted_scopes: Scope[] | null;
  rejection_reason: string | null;
  integration_id: string | null;
  /** SHA-256 of the application secret; the secret itself is never stored. */
  secret_hash: string;
  key_claimed_at: Date | null;
  created_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
}

export interface IntegrationDoc extends OutboxFields {
  _id: string;
  application_id: string;
  app_name: string;
  scopes: Scope[];
  /** False on a test twin: the integration that owns a live integration's test keys and data. */
  livemode?: false;
  /** On a test twin, the live integration it belongs to (whose scopes its keys carry). */
  live_integration_id?: string;
  /** On a live integration, its test twin once one was made. */
  test_integration_id?: string;
  created_at: Date;
  updated_at: Date;
}

/** What is stored of an agent or a provider key. */
export interface StoredKey extends OutboxFields {
  _id: string;
  /** SHA-256 of the key; keys are looked up by it and never stored in plain text. */
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface KeyDoc extends StoredKey {
  integration_id: string;
}

export function applicationView(doc: ApplicationDoc): Application {
  return {
    object: 'access_application',
    id: doc._id,
    status: doc.status,
    app_name: doc.app_name,
    description: doc.description,
    contact_email: doc.contact_email,
    website: doc.website,
    requested_scopes: doc.requested_scopes,
    granted_scopes: doc.granted_scopes,
    rejection_reason: doc.rejection_reason,
    integration_id: doc.integration_id,
    key_claimed: doc.key_claimed_at !== null,
    created_at: doc.created_at.toISOString(),
    decided_at: doc.decided_at?.toISOString() ?? null,
    decided_by: doc.decided_by,
  };
}

/** What an agent key and a provider key show alike: never the secret, only its shape and times. */
export function keyFields(doc: StoredKey) {
  return {
    prefix: doc.prefix,
    last4: doc.last4,
    status: keyStatus(doc),
    created_at: doc.created_at.toISOString(),
    expires_at: doc.expires_at.toISOString(),
    revoked_at: doc.revoked_at?.toISOString() ?? null,
  };
}

export function keyView(doc: KeyDoc): KeySummary {
  return { object: 'api_key', id: doc._id, integration_id: doc.integration_id, ...keyFields(doc) };
}

/**
 * What a test twin stores as its `application_id`: the live integration's, marked, since an
 * application has one integration by a unique index (`application_unique`); views show it bare.
 */
export const testTwinApplicationKey = (applicationId: string) => `${applicationId}${TWIN_MARK}`;
const TWIN_MARK = ':test';

export function integrationView(doc: IntegrationDoc, keys: KeyDoc[]): Integration {
  return {
    object: 'integration',
    id: doc._id,
    application_id:
      doc.livemode === false ? doc.application_id.replace(TWIN_MARK, '') : doc.application_id,
    app_name: doc.app_name,
    scopes: doc.scopes,
    livemode: doc.livemode !== false,
    live_integration_id: doc.live_integration_id ?? null,
    test_integration_id: doc.test_integration_id ?? null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    keys: keys.map(keyView),
  };
}
