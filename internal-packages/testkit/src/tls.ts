import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  /** The CA that signed both certificates: NATS_TLS_CA. */
  ca: string;
  serverCert: string;
  serverKey: string;
  /** A client certificate for servers that verify clients: NATS_TLS_CERT / NATS_TLS_KEY. */
  clientCert: string;
  clientKey: string;
}

/**
 * A throwaway CA and a server certificate for 127.0.0.1, plus a client certificate, made with the
 * machine's openssl (P-256 keys, valid for a day), so TLS is tested the way it is deployed:
 * a private CA that clients are told about.
 */
export function makeTestCertificates(dir: string): TestCertificates {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...key,
    '-keyout',
    path('ca.key'),
    '-out',
    path('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=Handoff test CA',
  );
  const sign = (name: string, extensions: string) => {
    openssl(
      'req',
      ...key,
      '-keyout',
      path(`${name}.key`),
      '-out',
      path(`${name}.csr`),
      '-subj',
      `/CN=${name}`,
    );
    writeFileSync(path(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      path(`${name}.csr`),
      '-CA',
      path('ca.pem'),
      '-CAkey',
      path('ca.key'),
      '-CAcreateserial',
      '-out',
      path(`${name}.pem`),
      '-days',
      '1',
      '-extfile',
      path(`${name}.ext`),
    );
  };
  sign('server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  sign('client', 'extendedKeyUsage=clientAuth\n');
  return {
    ca: path('ca.pem'),
    serverCert: path('server.pem'),
    serverKey: path('server.key'),
    clientCert: path('client.pem'),
    clientKey: path('client.key'),
  };
}
