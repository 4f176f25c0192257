// Files through @handoff/sdk and the MCP tools, against the stack as `npm start` runs it: the
// agent uploads bytes, a stream and text, sees the same SHA-256, downloads the same bytes, attaches
// them to a message; the provider uploads into the conversation and for a deliverable; another
// integration's key gets 404; an altered URL is renewed when the client holds the file.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { MCP_UPLOAD_MAX_BYTES } from '@handoff/mcp';
import {
  createHandoffClient,
  HandoffError,
  toArray,
  type FileObject,
  type HandoffClient,
} from '@handoff/sdk';
import { eventually } from '@handoff/testkit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startLocalStack, STACK_SETUP_MS, type Humans, type LocalStack } from './support.ts';

let stack: LocalStack;
let agent: HandoffClient;
let agentKey: string;
let stranger: HandoffClient;
const open: Client[] = [];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A stream of `bytes` in chunks of `size`, as a reader of a big file gives them. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** The same URL with its signature's first character changed. */
const altered = (url: string) =>
  url.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);

beforeAll(async () => {
  stack = await startLocalStack('files');
  agentKey = await stack.agentKey(SCOPES, 'Files agent');
  agent = createHandoffClient({ baseUrl: stack.base, apiKey: agentKey });
  stranger = createHandoffClient({
    baseUrl: stack.base,
    apiKey: await stack.agentKey(SCOPES, 'Another integration'),
  });
}, STACK_SETUP_MS);

afterAll(async () => {
  await Promise.allSettled(open.map((client) => client.close()));
  await stack?.stop();
});

describe('files through @handoff/sdk', () => {
  it('uploads bytes and a stream, answers their SHA-256 and gives the same bytes back', async () => {
    await stack.withServiceLines(async () => {
      const created = await agent.requests.create({ message: 'Fix the layout of our menu page.' });
      const { id } = created;
      // A PDF's magic number, then random bytes: a type the bytes decide.
      const pdf = new Uint8Array([...Buffer.from('%PDF-1.7\n'), ...randomBytes(300 * 1024)]);
      const fromBytes = await agent.requests.files.upload(id, pdf, { filename: 'brief.pdf' });
      expect(fromBytes).toMatchObject({
        object: 'file',
        request_id: id,
        filename: 'brief.pdf',
        size: pdf.byteLength,
        content_type: 'application/pdf',
        sha256: sha256(pdf),
        uploaded_by: 'agent',
        purpose: 'message_attachment',
      });

      // A stream is sent as it is read (chunked, `duplex: 'half'`), never buffered whole.
      const log = new TextEncoder().encode('GET /menu 500\n'.repeat(40_000));
      const fromStream = await agent.requests.files.upload(id, chunked(log, 64 * 1024), {
        filename: '../../logs/server.log',
        contentType: 'text/plain',
      });
      expect(fromStream).toMatchObject({
        filename: 'server.log',
        size: log.byteLength,
        content_type: 'text/plain',
        sha256: sha256(log),
      });

      const listed = await toArray(agent.requests.files.list(id));
      expect(listed.map((file) => file.id).sort()).toEqual([fromBytes.id, fromStream.id].sort());
      const read = await agent.requests.files.get(id, fromStream.id);
      expect(read).toMatchObject({ id: fromStream.id, sha256: sha256(log) });

      expect(await agent.requests.files.bytes(fromBytes)).toEqual(pdf);
      const response = await agent.requests.files.download(read.download_url);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('etag')).toBe(`"${sha256(log)}"`);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(log);
      const range = await agent.requests.files.download(read, { headers: { Range: 'bytes=0-2' } });
      expect(range.status).toBe(206);
      expect(await range.text()).toBe('GET');

      // A file renews its URL when the one it holds is refused; a bare URL cannot.
      const stale: FileObject = { ...fromBytes, download_url: altered(fromBytes.download_url) };
      expect(await agent.requests.files.bytes(stale)).toEqual(pdf);
      const refused = await agent.requests.files
        .download(stale.download_url)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(HandoffError);
      expect(refused).toMatchObject({ status: 403, code: 'download_url_invalid' });

      const message = await agent.requests.sendMessage(id, {
        message: 'The brief and the server log.',
        attachments: [fromBytes.id, fromStream.id],
      });
      expect(message.attachments?.map((file) => [file.id, file.sha256])).toEqual([
        [fromBytes.id, sha256(pdf)],
        [fromStream.id, sha256(log)],
      ]);

      // Another integration, even with the request's token, sees no such request or file.
      const token = { token: created.request_token };
      for (const attempt of [
        () => toArray(stranger.requests.files.list(id, token)),
        () => stranger.requests.files.get(id, fromBytes.id, token),
      ]) {
        const error = await attempt().catch((caught: unknown) => caught);
        expect(error).toMatchObject({ status: 404 });
      }
    });
  }, 120_000);

  it("carries files both ways: the provider's attachments and deliverable files", async () => {
    await stack.withServiceLines(async () => {
      const humans = await stack.humans('Files Studio');
      const { id } = await agent.requests.create({
        message: 'Design a logo for our bakery.',
        category: 'web-development',
      });
      await humans.route(id);
      await providerSide(humans, id);
    });
  }, 120_000);
});

async function providerSide({ provider, staff }: Humans, id: string) {
  const sketch = new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...randomBytes(64),
  ]);
  const attached = await provider.requests.uploadFile(id, new Blob([sketch]), {
    filename: 'sketch.png',
    contentType: 'image/png',
  });
  expect(attached).toMatchObject({ uploaded_by: 'provider', sha256: sha256(sketch) });
  await provider.requests.sendMessage(id, {
    message: 'A first sketch.',
    attachments: [attached.id],
  });
  expect(await provider.fileBytes(attached)).toEqual(sketch);

  const proposal = await provider.requests.propose(id, {
    message: 'A logo in two rounds.',
    amount: 400,
    milestones: [{ title: 'Logo', amount: 400, due_in_days: 7 }],
  });
  await agent.requests.proposals.accept(id, proposal.id);
  const milestone = await eventually(async () => {
    const [first] = await toArray(agent.requests.milestones.list(id));
    expect(first).toBeDefined();
    return first as { id: string };
  });
  const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Uint8Array(18)]);
  const final = await provider.milestones.uploadFile(milestone.id, zip, { filename: 'logo.zip' });
  expect(final).toMatchObject({ purpose: 'deliverable', content_type: 'application/zip' });
  const deliverable = await provider.milestones.addDeliverable(milestone.id, {
    title: 'The logo files',
    files: [final.id],
  });
  expect(deliverable).toMatchObject({ url: null, files: [{ id: final.id, sha256: sha256(zip) }] });

  // The agent and staff read every file of the request; the agent downloads the deliverable's.
  const agentFiles = await toArray(agent.requests.files.list(id));
  expect(agentFiles.map((file) => file.id)).toEqual([final.id, attached.id]);
  expect(await agent.requests.files.bytes(agentFiles[0] as FileObject)).toEqual(zip);
  const staffFiles = await toArray(staff.requests.files(id));
  expect(staffFiles.map((file) => file.id)).toEqual([final.id, attached.id]);
  expect(await staff.fileBytes(staffFiles[1] as FileObject)).toEqual(sketch);
  expect((await toArray(provider.requests.files(id))).map((file) => file.id)).toEqual([
    final.id,
    attached.id,
  ]);
}

// --- The MCP tools ------------------------------------------------------------------------------

type Json = Record<string, unknown>;

async function connect(transport: 'stdio' | 'http'): Promise<Client> {
  const client = new Client({ name: 'handoff-files-test', version: '0.1.0' });
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [fileURLToPath(new URL('../../packages/mcp/src/stdio.ts', import.meta.url))],
        env: {
          ...getDefaultEnvironment(),
          PATH: process.env.PATH ?? '',
          HANDOFF_URL: stack.base,
          HANDOFF_API_KEY: agentKey,
        },
        stderr: 'pipe',
      }),
    );
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${agentKey}` } },
      }),
    );
  }
  open.push(client);
  return client;
}

async function call(client: Client, name: string, args: Json) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
  return { isError: result.isError === true, text, json: JSON.parse(text) as Json };
}

describe.each(['stdio', 'http'] as const)('the MCP file tools over %s', (transport) => {
  it('upload text and base64, list the files with URLs, and attach them to a message', async () => {
    await stack.withServiceLines(async () => {
      const client = await connect(transport);
      const created = await agent.requests.create({ message: 'Our checkout fails.' });
      const ref = { request_id: created.id, request_token: created.request_token };

      const notes = 'Steps: add a cake, pay, see an error.\n';
      const text = await call(client, 'upload_file', {
        ...ref,
        filename: 'steps.txt',
        text: notes,
      });
      expect(text.isError).toBe(false);
      expect(text.json).toMatchObject({
        filename: 'steps.txt',
        content_type: 'text/plain',
        sha256: sha256(new TextEncoder().encode(notes)),
      });
      const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
      const image = await call(client, 'upload_file', {
        ...ref,
        filename: 'pixel.gif',
        content_base64: gif.toString('base64'),
        content_type: 'image/gif',
      });
      expect(image.json).toMatchObject({ content_type: 'image/gif', sha256: sha256(gif) });

      // The largest upload_file takes: as base64 over the API's 64 KiB JSON limit and the MCP
      // SDK's 4 MiB default, and the message has room.
      const photo = new Uint8Array([
        0xff,
        0xd8,
        0xff,
        0xe0,
        ...randomBytes(MCP_UPLOAD_MAX_BYTES - 4),
      ]);
      const large = await call(client, 'upload_file', {
        ...ref,
        filename: 'photo.jpg',
        content_base64: Buffer.from(photo).toString('base64'),
      });
      expect(large.json).toMatchObject({ content_type: 'image/jpeg', sha256: sha256(photo) });

      const listed = await call(client, 'list_files', ref);
      const files = listed.json.data as FileObject[];
      expect(files.map((file) => file.id)).toEqual([large.json.id, image.json.id, text.json.id]);
      const downloaded = await fetch(String(files[2]?.download_url));
      expect(await downloaded.text()).toBe(notes);

      const sent = await call(client, 'send_message', {
        ...ref,
        message: 'Steps and a screenshot.',
        attachments: [text.json.id, image.json.id],
      });
      expect(sent.json.attachments).toMatchObject([
        { id: text.json.id, filename: 'steps.txt' },
        { id: image.json.id, filename: 'pixel.gif' },
      ]);

      // Exactly one content, within the limit, is checked before any call.
      const both = await call(client, 'upload_file', {
        ...ref,
        filename: 'x.txt',
        text: 'a',
        content_base64: 'YQ==',
      });
      expect(both).toMatchObject({ isError: true, json: { code: 'tool_failed' } });
      const neither = await call(client, 'upload_file', { ...ref, filename: 'x.txt' });
      expect(neither.isError).toBe(true);
      const big = await client.callTool({
        name: 'upload_file',
        arguments: { ...ref, filename: 'big.txt', text: 'x'.repeat(MCP_UPLOAD_MAX_BYTES + 1) },
      });
      expect(big.isError).toBe(true);
    });
  }, 120_000);
});
