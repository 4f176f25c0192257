import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusError, callSubject, endpoint } from '@handoff/bus';
import { baseServiceEnv, loadEnv } from '@handoff/config';
import { createLogger, parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import { natsEnv, natsOptions, testServers, uniqueDatabase } from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { runService } from '../src/index.ts';

// A backend service's health port serves the process's metrics: the bus calls it served and the
// ones made to it, by subject (a template) and error code, never by anything a message carries.
let client: NatsConnection;
let service: { healthPort: number; stop(): Promise<void> };

beforeAll(async () => {
  client = await connect({ ...natsOptions() });
  service = await runService({
    name: 'intake',
    version: '0.0.0-test',
    description: 'metrics test',
    env: loadEnv('metrics-test', baseServiceEnv, {
      ...natsEnv('intake'),
      MONGO_URL: testServers().mongoUrl,
      MONGO_DB: uniqueDatabase('metrics'),
      HEALTH_PORT: '0',
    }),
    collections: {},
    logger: createLogger({ service: 'metrics-test', version: '0', level: 'silent' }),
    endpoints: () => ({
      echo: endpoint(z.object({ id: z.string() }), async ({ id }) => ({ id })),
      refuse: endpoint(z.object({ id: z.string() }), async () => {
        throw new BusError('request_not_found', 'no such request');
      }),
    }),
  });
});

afterAll(async () => {
  await service.stop();
  await client.close();
});

const scrape = async (): Promise<PrometheusSample[]> => {
  const res = await fetch(`http://127.0.0.1:${service.healthPort}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
};

const countOf = (samples: PrometheusSample[], name: string, labels: Record<string, string>) =>
  samples
    .filter(
      (s) =>
        s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
    )
    .reduce((sum, s) => sum + s.value, 0);

const call = (subject: string, id: string) =>
  callSubject(client, subject, { id }, { timeoutMs: 5_000, reply: z.unknown() });

describe('a backend service /metrics', () => {
  it('times each bus request it serves and each one made, by subject', async () => {
    for (let i = 0; i < 5; i += 1) await call('handoff.intake.echo', `req_${i}`);
    const samples = await scrape();
    const served = {
      messaging_system: 'nats',
      messaging_operation_name: 'process',
      messaging_destination_name: 'handoff.intake.echo',
    };
    expect(countOf(samples, 'messaging_process_duration_seconds_count', served)).toBe(5);
    const made = { ...served, messaging_operation_name: 'request' };
    expect(countOf(samples, 'messaging_client_operation_duration_seconds_count', made)).toBe(5);
    // Successes carry no error.type.
    const echoes = samples.filter(
      (s) => s.labels.messaging_destination_name === 'handoff.intake.echo',
    );
    expect(echoes.every((s) => s.labels.error_type === undefined)).toBe(true);
  });

  it('labels a failure with its error code, on both sides', async () => {
    await expect(call('handoff.intake.refuse', 'req_x')).rejects.toMatchObject({
      code: 'request_not_found',
    });
    await expect(call('handoff.intake.nobody', 'req_y')).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    const samples = await scrape();
    const refused = {
      messaging_destination_name: 'handoff.intake.refuse',
      error_type: 'request_not_found',
    };
    expect(countOf(samples, 'messaging_process_duration_seconds_count', refused)).toBe(1);
    expect(countOf(samples, 'messaging_client_operation_duration_seconds_count', refused)).toBe(1);
    expect(
      countOf(samples, 'messaging_client_operation_duration_seconds_count', {
        messaging_destination_name: 'handoff.intake.nobody',
        error_type: 'service_unavailable',
      }),
    ).toBe(1);
  });

  it('keeps ids out of every label', async () => {
    const samples = await scrape();
    const values = samples.flatMap((s) => Object.values(s.labels));
    expect(values.filter((value) => /req_/.test(value))).toEqual([]);
  });
});
