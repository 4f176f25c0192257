import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// For tests only: signs staff tokens and serves a JWKS the way an identity provider would.

export interface SignStaffTokenOptions {
  /** Defaults to `staff-1`; `null` leaves the claim out. */
  sub?: string | null;
  /** Defaults to `['staff']`; `null` leaves the claim out. */
  roles?: unknown;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. Defaults to 300. */
  expiresInSeconds?: number | null;
  alg?: string;
  kid?: string;
  extra?: JWTPayload;
}

/** Signs a token with an HS256 secret, or with a private key and `alg`. */
export async function signStaffToken(
  key: string | CryptoKey,
  options: SignStaffTokenOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { ...options.extra };
  if (options.sub !== null) claims.sub = options.sub ?? 'staff-1';
  if (options.roles !== null) claims.roles = options.roles ?? ['staff'];
  if (options.issuer !== undefined) claims.iss = options.issuer;
  if (options.audience !== undefined) claims.aud = options.audience;
  if (options.expiresInSeconds !== null) claims.exp = now + (options.expiresInSeconds ?? 300);
  const jwt = new SignJWT(claims).setIssuedAt(now).setProtectedHeader({
    alg: options.alg ?? 'HS256',
    typ: 'JWT',
    ...(options.kid === undefined ? {} : { kid: options.kid }),
  });
  return jwt.sign(typeof key === 'string' ? new TextEncoder().encode(key) : key);
}

export interface SigningKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
  alg: string;
}

export async function createSigningKey(alg: 'RS256' | 'ES256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { privateKey, publicKey, publicJwk, kid, alg };
}

export interface JwksServer {
  url: string;
  /** How many times the key set was fetched. */
  requests(): number;
  close(): Promise<void>;
}

/** Serves `{ keys }` on 127.0.0.1 at a free port. */
export async function startJwksServer(keys: readonly JWK[]): Promise<JwksServer> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
