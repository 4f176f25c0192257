// Files through the gateway (docs/files.md), as one suite that files.test.ts runs on GridFS and
// files-s3.test.ts on an S3-compatible store: uploads streamed into the owning service's store,
// signed download URLs, the parties who may get them, and what is refused. Real gateway, real
// services, real NATS, MongoDB-wire and S3 servers, real sockets.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { busOptionsFromEnv, call, callBytes, connectBus } from '@handoff/bus';
import { createLogger } from '@handoff/observability';
import { conversationFileOps } from '@handoff/contracts';
import { catalogOf, openFileStore, type FilesEnv } from '@handoff/files';
import { eventually, natsEnv } from '@handoff/testkit';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect as connectTcp } from 'node:net';
import type { Onboarded } from './http.ts';
import { useStack, type OwnedRequest, type ProviderAccount, type Stack } from './stack.ts';

/** Small limits, so that "the limit" and "the limit + 1" are quick to send. */
const MAX_FILE = 6 * 1024 * 1024;
const MAX_REQUEST = 20 * 1024 * 1024;
const MAX_PER_REQUEST = 8;
const FILES_ENV = {
  FILES_MAX_FILE_BYTES: String(MAX_FILE),
  FILES_MAX_REQUEST_BYTES: String(MAX_REQUEST),
  FILES_MAX_PER_REQUEST: String(MAX_PER_REQUEST),
};

let stack: Stack;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Text bytes of `size` (text is taken whatever its length, 0 included). */
const textOf = (size: number) => Buffer.alloc(size, 'abcdefghij\n');

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(2_000),
]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2_000)]);

interface Upload {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function upload(
  path: string,
  bytes: Uint8Array,
  headers: Record<string, string>,
): Promise<Upload> {
  const res = await fetch(`${stack.gateway.url}${path}`, {
    method: 'POST',
    headers: { 'X-Forwarded-For': '198.51.100.9', ...headers },
    body: bytes,
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: res.headers,
  };
}

const agentUpload = (
  agent: Onboarded,
  request: OwnedRequest,
  bytes: Uint8Array,
  { filename = 'notes.txt', type = 'text/plain', headers = {} as Record<string, string> } = {},
) =>
  upload(`/v1/request/${request.id}/files?filename=${encodeURIComponent(filename)}`, bytes, {
    Authorization: `Bearer ${agent.key}`,
    'X-Service-Request-Token': request.token,
    'Content-Type': type,
    ...headers,
  });

async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The suite, on a stack whose files are kept where `storeEnv` says (`store` names it). */
export function fileSuite(label: string, store: string, storeEnv: () => Record<string, string>) {
  const env = { ...FILES_ENV, ...storeEnv() };
  stack = useStack(label, { env: { conversation: env, milestones: env } });
  describe(`files through the gateway, on ${store}`, () => {
    fileTests();
  });
}

function fileTests() {
  let agent: Onboarded;
  let other: Onboarded;
  let plumber: ProviderAccount;

  beforeAll(async () => {
    [agent, other, plumber] = await Promise.all([
      stack.agentOf(),
      stack.agentOf(),
      stack.providerOf(),
    ]);
  });

  it.each([
    ['0 B', 0],
    ['1 byte', 1],
    ['5 MiB', 5 * 1024 * 1024],
    ['the limit', MAX_FILE],
  ])('round-trips %s: sha256, size and the same bytes back with nosniff', async (_name, size) => {
    const request = await stack.requestOf(agent);
    const bytes = textOf(size);
    const answer = await agentUpload(agent, request, bytes);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      object: 'file',
      id: expect.stringMatching(/^file_/),
      request_id: request.id,
      purpose: 'message_attachment',
      filename: 'notes.txt',
      size,
      content_type: 'text/plain',
      sha256: sha256(bytes),
      uploaded_by: 'agent',
      livemode: true,
    });
    const got = await download(String(answer.body.download_url));
    expect(got.status).toBe(200);
    expect(got.bytes.length).toBe(size);
    expect(sha256(got.bytes)).toBe(sha256(bytes));
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
  });

  it('refuses a declared length over the limit before reading a byte of the body', async () => {
    const request = await stack.requestOf(agent);
    const url = new URL(`${stack.gateway.url}/v1/request/${request.id}/files?filename=big.txt`);
    // Headers only: a gateway that waited for the body would never answer.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connectTcp(Number(url.port), url.hostname, () => {
        socket.write(
          `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
            `Authorization: Bearer ${agent.key}\r\nX-Service-Request-Token: ${request.token}\r\n` +
            `Content-Type: text/plain\r\nContent-Length: ${MAX_FILE + 1}\r\n\r\n`,
        );
      });
      let text = '';
      socket.on('data', (data: Buffer) => {
        text += data.toString('latin1');
        if (text.includes('\r\n\r\n') && text.includes('}')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"file_too_large"');
    expect(answer).toContain(`"limit":${MAX_FILE}`);
  });

  it('refuses a chunked body at the first byte past the limit, and the client reads the 413', async () => {
    const request = await stack.requestOf(agent);
    const url = new URL(`${stack.gateway.url}/v1/request/${request.id}/files?filename=endless.txt`);
    let written = 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${agent.key}`,
          'X-Service-Request-Token': request.token,
          'Content-Type': 'text/plain',
          'Transfer-Encoding': 'chunked',
        },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.on('data', (data: Buffer) => (body += data.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      // Fast, as a client streaming a big file does, until the gateway answers.
      const pump = () => {
        while (!answered && written <= MAX_FILE * 4) {
          const piece = textOf(256 * 1024);
          written += piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'file_too_large', limit: MAX_FILE });
    // It stopped reading at the limit: far less than the client would have sent.
    expect(written).toBeLessThan(MAX_FILE * 4);
    const listed = await stack.asCustomer(agent, request, '/files');
    expect(listed.body.data).toEqual([]);
  });

  it('refuses a declared type that the bytes contradict, and bytes of a type not taken', async () => {
    const request = await stack.requestOf(agent);
    const lying = await agentUpload(agent, request, PDF, { filename: 'a.png', type: 'image/png' });
    expect(lying).toMatchObject({
      status: 415,
      body: { code: 'file_type_mismatch', detected: 'application/pdf' },
    });
    const html = await agentUpload(
      agent,
      request,
      Buffer.from('<!doctype html><script>1</script>'),
      {
        filename: 'x.html',
        type: 'application/octet-stream',
      },
    );
    expect(html).toMatchObject({ status: 415, body: { code: 'file_type_not_allowed' } });
    const declared = await agentUpload(agent, request, textOf(10), { type: 'text/html' });
    expect(declared).toMatchObject({ status: 415, body: { code: 'file_type_not_allowed' } });
    // Bytes of no known type, nothing declared: any other kind of file (a drawing, a video).
    const blob = Buffer.concat([Buffer.from([0x00, 0xff, 0x10, 0x80]), randomBytes(70_000)]);
    const other = await agentUpload(agent, request, blob, {
      filename: 'plan.dwg',
      type: 'application/octet-stream',
    });
    expect(other).toMatchObject({
      status: 201,
      body: { content_type: 'application/octet-stream' },
    });
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), randomBytes(100)]);
    const program = await agentUpload(agent, request, elf, {
      filename: 'tool',
      type: 'application/octet-stream',
    });
    expect(program).toMatchObject({ status: 415, body: { code: 'file_type_not_allowed' } });
    // Another name browsers send for an allowed type is that type.
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(100)]);
    const jpg = await agentUpload(agent, request, jpeg, { filename: 'a.jpg', type: 'image/jpg' });
    expect(jpg).toMatchObject({ status: 201, body: { content_type: 'image/jpeg' } });
    const png = await agentUpload(agent, request, PNG, {
      filename: 'photo.png',
      type: 'application/octet-stream',
    });
    expect(png).toMatchObject({ status: 201, body: { content_type: 'image/png' } });
    const listed = await stack.asCustomer(agent, request, '/files');
    expect((listed.body.data as { id: string }[]).map((file) => file.id).sort()).toEqual(
      [png.body.id, jpg.body.id, other.body.id].sort(),
    );
  });

  it('neutralises a path-traversal or NUL filename', async () => {
    const request = await stack.requestOf(agent);
    const traversal = await agentUpload(agent, request, textOf(3), {
      filename: '../../etc/passwd',
    });
    expect(traversal).toMatchObject({ status: 201, body: { filename: 'passwd' } });
    const nul = await agentUpload(agent, request, textOf(3), { filename: 'a\u0000b.txt' });
    expect(nul).toMatchObject({ status: 201, body: { filename: 'a_b.txt' } });
    const got = await download(String(nul.body.download_url));
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="a_b.txt"; filename*=UTF-8''a_b.txt`,
    );
  });

  it('answers another integration’s key as for an unknown request, and an unknown file as 404', async () => {
    const request = await stack.requestOf(agent);
    const mine = await agentUpload(agent, request, textOf(5));
    const theirs = await stack.asCustomer(other, request, '/files');
    const unknown = await stack.asCustomer(
      other,
      { id: 'req_unknown0000000000000000', token: request.token },
      '/files',
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe(unknown.body.code);
    const someone = await stack.requestOf(other);
    const foreign = await stack.asCustomer(other, someone, `/files/${String(mine.body.id)}`);
    const missing = await stack.asCustomer(other, someone, '/files/file_doesnotexist000000');
    expect(foreign).toMatchObject({ status: 404, body: { code: 'file_not_found' } });
    expect(missing).toMatchObject({ status: 404, body: { code: 'file_not_found' } });
  });

  it('refuses an altered or expired signed URL', async () => {
    const request = await stack.requestOf(agent);
    const file = await agentUpload(agent, request, textOf(5));
    const url = new URL(String(file.body.download_url));
    const altered = new URL(url);
    altered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60));
    const expired = new URL(url);
    expired.searchParams.set('expires', '1000000000');
    const otherFile = new URL(url);
    otherFile.pathname = '/v1/files/file_doesnotexist000000/content';
    for (const bad of [altered, expired, otherFile]) {
      const got = await download(bad.toString());
      expect(got.status).toBe(403);
      expect(JSON.parse(got.bytes.toString('utf8'))).toMatchObject({
        code: 'download_url_invalid',
      });
    }
  });

  it('serves a range with 206, and 304 for a matching If-None-Match', async () => {
    const request = await stack.requestOf(agent);
    const bytes = Buffer.concat([textOf(300 * 1024), Buffer.from('the end\n')]);
    const file = await agentUpload(agent, request, bytes);
    const url = String(file.body.download_url);
    const ranged = await download(url, { Range: 'bytes=261100-261199' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 261100-261199/${bytes.length}`);
    expect(ranged.bytes.equals(bytes.subarray(261100, 261200))).toBe(true);
    const tail = await download(url, { Range: 'bytes=-8' });
    expect(tail.bytes.toString()).toBe('the end\n');
    const past = await download(url, { Range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    const cached = await download(url, { 'If-None-Match': `"${sha256(bytes)}"` });
    expect(cached.status).toBe(304);
  });

  it('attaches files to a message: the message, its event and the provider see their metadata', async () => {
    const request = await stack.routedRequest(agent, [plumber]);
    const file = await agentUpload(agent, request, PNG, { filename: 'tap.png', type: 'image/png' });
    const sent = await stack.asCustomer(agent, request, '/message', {
      body: { message: 'Here is the tap.', attachments: [file.body.id] },
    });
    const meta = {
      id: file.body.id,
      filename: 'tap.png',
      size: PNG.length,
      content_type: 'image/png',
      sha256: sha256(PNG),
    };
    expect(sent).toMatchObject({ status: 201, body: { attachments: [meta] } });
    expect(JSON.stringify(sent.body)).not.toContain('download_url');
    // The event is published after the answer: the feed has it soon after.
    const created = await eventually(async () => {
      const feed = await stack.asCustomer(agent, request, '/events?after=0&wait=0');
      return (feed.body.data as { type: string; data: { object: unknown } }[]).find(
        (event) => event.type === 'message.created',
      );
    });
    expect(created?.data.object).toMatchObject({ attachments: [meta] });
    const seen = await stack.asProvider(plumber, `/requests/${request.id}/files`);
    expect(seen.status).toBe(200);
    const got = await download(
      String((seen.body.data as { download_url: string }[])[0]?.download_url),
    );
    expect(got.bytes.equals(PNG)).toBe(true);
  });

  it('refuses a blank message, with files or without', async () => {
    const request = await stack.requestOf(agent);
    const file = await agentUpload(agent, request, textOf(12));
    for (const body of [{ message: '  ', attachments: [file.body.id] }, { message: '' }]) {
      const blank = await stack.asCustomer(agent, request, '/message', { body });
      expect(blank).toMatchObject({
        status: 422,
        body: { errors: [{ pointer: '/message', detail: 'must not be blank' }] },
      });
    }
  });

  it('refuses to attach a file of another request', async () => {
    const first = await stack.requestOf(agent);
    const second = await stack.requestOf(agent);
    const file = await agentUpload(agent, first, textOf(4));
    const sent = await stack.asCustomer(agent, second, '/message', {
      body: { message: 'Wrong one.', attachments: [file.body.id] },
    });
    expect(sent).toMatchObject({ status: 404, body: { code: 'file_not_found' } });
  });

  it('makes a deliverable of files: the provider uploads for its milestone, the agent downloads', async () => {
    const { request, jobId } = await stack.engagement(agent, plumber);
    const milestones = await stack.asProvider(plumber, `/milestones?job_id=${jobId}`);
    const milestoneId = String((milestones.body.data as { id: string }[])[0]?.id);
    const uploaded = await upload(
      `/v1/provider/milestones/${milestoneId}/files?filename=report.pdf`,
      PDF,
      {
        Authorization: `Bearer ${plumber.key}`,
        'Content-Type': 'application/pdf',
      },
    );
    expect(uploaded).toMatchObject({
      status: 201,
      body: { purpose: 'deliverable', milestone_id: milestoneId, uploaded_by: 'provider' },
    });
    const deliverable = await stack.asProvider(plumber, `/milestones/${milestoneId}/deliverables`, {
      body: { title: 'The report', files: [uploaded.body.id] },
    });
    expect(deliverable).toMatchObject({
      status: 201,
      body: { url: null, files: [{ id: uploaded.body.id, filename: 'report.pdf' }] },
    });
    const listed = await stack.asCustomer(agent, request, '/files');
    const entry = (listed.body.data as { id: string; download_url: string }[]).find(
      (item) => item.id === uploaded.body.id,
    );
    const got = await download(String(entry?.download_url));
    expect(got.bytes.equals(PDF)).toBe(true);
  });

  it('staff list every file of a request with download URLs', async () => {
    const request = await stack.requestOf(agent);
    const file = await agentUpload(agent, request, textOf(7));
    const listed = await stack.asStaff(`/requests/${request.id}/files`);
    expect(listed).toMatchObject({ status: 200, body: { data: [{ id: file.body.id }] } });
  });

  describe('uploads cut short, limits and retries', () => {
    /** The conversation's files as its service keeps them: catalog and store. */
    const owned = () => {
      const service = stack.backend('conversation');
      return {
        catalog: catalogOf(service.store.db, 'attachments'),
        store: openFileStore(service.env as unknown as FilesEnv, service.store.db, 'attachments'),
      };
    };

    it('a client gone mid-upload leaves no file and no chunk', async () => {
      const request = await stack.requestOf(agent);
      const url = new URL(`${stack.gateway.url}/v1/request/${request.id}/files?filename=cut.txt`);
      const req = httpRequest(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${agent.key}`,
          'X-Service-Request-Token': request.token,
          'Content-Type': 'text/plain',
          'Transfer-Encoding': 'chunked',
        },
      });
      req.on('error', () => undefined);
      req.write(textOf(1024 * 1024));
      const { catalog, store } = owned();
      // The upload is under way: its chunks are stored as they come.
      const upload = await eventually(async () => {
        const doc = await catalog.uploads.findOne({ request_id: request.id });
        return doc && (await store.countChunks(doc._id)) > 0 ? doc : undefined;
      });
      req.destroy();
      await eventually(async () =>
        (await catalog.uploads.findOne({ _id: upload._id })) === null ? true : undefined,
      );
      expect(await store.countChunks(upload._id)).toBe(0);
      expect(await catalog.files.findOne({ _id: upload._id })).toBeNull();
      const listed = await stack.asCustomer(agent, request, '/files');
      expect(listed.body.data).toEqual([]);
    });

    it('an upload whose gateway died is swept: no file, no orphaned chunk', async () => {
      const request = await stack.requestOf(agent);
      const { catalog, store } = owned();
      // The bus as a gateway is allowed on it (the NATS grants hold in tests).
      const bus = await connectBus({
        ...busOptionsFromEnv(natsEnv('gateway')),
        name: 'files-test',
        logger: createLogger({ service: 'files-test', version: '0', level: 'silent' }),
      });
      const nc = bus.nc;
      const options = { timeoutMs: 5_000 };
      // What a gateway does before it dies: claims the upload and stores two chunks.
      const started = await call(
        nc,
        conversationFileOps.begin,
        {
          request_id: request.id,
          integration_id: agent.integrationId,
          uploaded_by: 'agent',
          filename: 'orphan.txt',
          declared_type: 'text/plain',
        },
        options,
      );
      for (const n of [0, 1]) {
        await callBytes(
          nc,
          conversationFileOps.chunk,
          { file_id: started.file_id, n },
          textOf(started.chunk_bytes),
          options,
        );
      }
      expect(await store.countChunks(started.file_id)).toBe(2);
      const kept = await call(nc, conversationFileOps.sweep, { older_than_ms: 3_600_000 }, options);
      expect(await store.countChunks(started.file_id)).toBe(2);
      expect(kept.removed).toBe(0);
      const swept = await call(nc, conversationFileOps.sweep, { older_than_ms: 0 }, options);
      expect(swept.removed).toBeGreaterThanOrEqual(1);
      expect(await store.countChunks(started.file_id)).toBe(0);
      expect(await catalog.uploads.findOne({ _id: started.file_id })).toBeNull();
      const listed = await stack.asCustomer(agent, request, '/files');
      expect(listed.body.data).toEqual([]);
      await nc.close();
    });

    it('a retried upload with the same Idempotency-Key is one file', async () => {
      const request = await stack.requestOf(agent);
      const headers = { 'Idempotency-Key': `files-${randomBytes(8).toString('hex')}` };
      const first = await agentUpload(agent, request, textOf(1000), { headers });
      const again = await agentUpload(agent, request, textOf(1000), { headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      const listed = await stack.asCustomer(agent, request, '/files');
      expect((listed.body.data as unknown[]).length).toBe(1);
    });

    it('two uploads that fit the request’s total alone but not together: one is refused', async () => {
      const request = await stack.requestOf(agent);
      for (let i = 0; i < 2; i += 1) {
        expect((await agentUpload(agent, request, textOf(MAX_FILE))).status).toBe(201);
      }
      // 8 MiB left: each of these may start, only one may finish.
      const both = await Promise.all([
        agentUpload(agent, request, textOf(MAX_FILE)),
        agentUpload(agent, request, textOf(MAX_FILE)),
      ]);
      expect(both.map((answer) => answer.status).sort()).toEqual([201, 413]);
      const listed = await stack.asCustomer(agent, request, '/files');
      expect((listed.body.data as unknown[]).length).toBe(3);
    });

    it('keeps to the request’s total and count of files', async () => {
      const request = await stack.requestOf(agent);
      for (let i = 0; i < 3; i += 1) {
        expect((await agentUpload(agent, request, textOf(MAX_FILE))).status).toBe(201);
      }
      const over = await agentUpload(agent, request, textOf(3 * 1024 * 1024));
      expect(over).toMatchObject({
        status: 413,
        body: { code: 'file_too_large', limit: MAX_REQUEST - 3 * MAX_FILE },
      });
      for (let i = 3; i < MAX_PER_REQUEST; i += 1) {
        expect((await agentUpload(agent, request, textOf(10))).status).toBe(201);
      }
      const full = await agentUpload(agent, request, textOf(10));
      expect(full).toMatchObject({
        status: 409,
        body: { code: 'limit_reached', limit: MAX_PER_REQUEST },
      });
    });
  });
}
