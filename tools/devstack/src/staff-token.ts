// Development staff JWTs: what `npm start` prints and `handoff staff-token` mints. HS256 with the
// stack's secret (`STAFF_JWT_SECRET`, else the one generated once into `DATA_DIR`).
import { SignJWT } from 'jose';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const STAFF_SECRET_FILE = 'dev-staff-jwt-secret';
export const DEFAULT_STAFF_SUBJECT = 'dev-staff@handoff.local';

export interface StaffTokenOptions {
  /** The JWT `sub`: who the audit log names. */
  subject?: string;
  /** Lifetime in seconds; 12 h by default. */
  ttlSeconds?: number;
}

/** A development staff JWT: HS256, `roles: ['staff']`, 12 h unless told otherwise. */
export function signStaffToken(secret: string, options: StaffTokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ roles: ['staff'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.subject ?? DEFAULT_STAFF_SUBJECT)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.ttlSeconds ?? 12 * 3600))
    .sign(new TextEncoder().encode(secret));
}

/** The staff secret: the one given, else the development secret kept in `dataDir`. */
export function readStaffSecret(dataDir: string, given?: string): string {
  if (given) return given;
  const file = join(resolve(dataDir), STAFF_SECRET_FILE);
  if (!existsSync(file)) {
    throw new Error(
      `no ${file} and no STAFF_JWT_SECRET: start the stack with DATA_DIR=${resolve(dataDir)} first, or set STAFF_JWT_SECRET`,
    );
  }
  return readFileSync(file, 'utf8').trim();
}
