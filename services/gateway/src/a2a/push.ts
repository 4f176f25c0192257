import { type TaskPushNotificationConfig } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { webhookOps, type WebhookEndpoint } from '@handoff/contracts';
import { randomUUID } from 'node:crypto';
import { requireScopes } from '../http/pipeline/authenticate.ts';
import type { BaseContext } from '../http/route.ts';
import type { A2aCall } from './invoke.ts';
import type { OwnedTask } from './tasks.ts';

/** A bus call made for one A2A call (its call id, the bus timeout). */
export type BusCaller = (call: A2aCall) => BaseContext['call'];

/** Pages of the integration's endpoints looked through for a task's configs (100 each). */
const MAX_PAGES = 10;

/**
 * A task's push notification configs are webhook endpoints of the integration, made through the
 * dispatcher's own endpoint operations with `webhooks:manage`, as `POST /v1/webhook-endpoints`
 * makes them: the dispatcher delivers them only the task's request's events, each as the A2A
 * update it implies, with the client's token, signed and retried like any delivery. They count
 * against the integration's endpoints, and `GET /v1/webhook-endpoints` lists them (`a2a`).
 */
export function pushConfigs(busCall: BusCaller) {
  const endpointsOf = async (call: A2aCall, owned: OwnedTask) => {
    requireScopes(['webhooks:manage'], call.agent.scopes);
    const found: WebhookEndpoint[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const list = await busCall(call)(webhookOps.list, {
        integration_id: call.agent.integration_id,
        query: { limit: 100, ...(startingAfter ? { starting_after: startingAfter } : {}) },
      });
      found.push(...list.data.filter((endpoint) => endpoint.a2a?.task_id === owned.ref.taskId));
      startingAfter = list.data.at(-1)?.id;
      if (!list.has_more || startingAfter === undefined) break;
    }
    return found;
  };
  const configOf = (endpoint: WebhookEndpoint, taskId: string): TaskPushNotificationConfig => ({
    tenant: '',
    id: endpoint.a2a?.config_id ?? endpoint.id,
    taskId,
    url: endpoint.url,
    token: '',
    authentication: undefined,
  });
  const one = async (call: A2aCall, owned: OwnedTask, id: string) => {
    const endpoint = (await endpointsOf(call, owned)).find((e) => e.a2a?.config_id === id);
    if (!endpoint) throw new TaskNotFoundError('No such push notification config of this task.');
    return endpoint;
  };

  return {
    async create(call: A2aCall, owned: OwnedTask, config: TaskPushNotificationConfig) {
      requireScopes(['webhooks:manage'], call.agent.scopes);
      if (!config.url) throw new RequestMalformedError('A push notification config needs a url.');
      const configId = config.id || randomUUID();
      const { authentication } = config;
      await busCall(call)(webhookOps.create, {
        integration_id: call.agent.integration_id,
        input: {
          url: config.url,
          description: `A2A push notifications of task ${owned.ref.taskId}`,
        },
        a2a: {
          request_id: owned.ref.taskId,
          context_id: owned.ref.contextId,
          config_id: configId,
          ...(config.token ? { token: config.token } : {}),
          ...(authentication?.scheme && authentication.credentials
            ? { authorization: `${authentication.scheme} ${authentication.credentials}` }
            : {}),
        },
      });
      return { ...config, tenant: '', id: configId, taskId: owned.ref.taskId };
    },
    async get(call: A2aCall, owned: OwnedTask, id: string) {
      return configOf(await one(call, owned, id), owned.ref.taskId);
    },
    async list(call: A2aCall, owned: OwnedTask) {
      return (await endpointsOf(call, owned)).map((e) => configOf(e, owned.ref.taskId));
    },
    async remove(call: A2aCall, owned: OwnedTask, id: string) {
      const endpoint = await one(call, owned, id);
      await busCall(call)(webhookOps.remove, {
        integration_id: call.agent.integration_id,
        id: endpoint.id,
      });
    },
  };
}
export type PushConfigs = ReturnType<typeof pushConfigs>;
