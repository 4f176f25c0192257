import { A2A_VERSION_HEADER, AgentCard } from '@a2a-js/sdk';
import { agentCardHandler } from '@a2a-js/sdk/server/express';
import { A2A_PROTOCOL_VERSION } from '@handoff/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { ServiceCategory } from '../categories.ts';

/** Where the JSON-RPC binding is served, below the gateway's origin. */
export const A2A_PATH = '/a2a';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
/** The card's security scheme: the agent key as a bearer token. */
export const AGENT_KEY_SCHEME = 'agent_key';

/**
 * The gateway's Agent Card for the origin it was called at: one JSON-RPC interface at `/a2a` in
 * A2A 1.0 and, for clients of the 0.3 drafts, 0.3; one skill per service category (a task is a
 * handoff request of that category); the agent key as a bearer token.
 */
export function agentCardOf(
  origin: string,
  categories: readonly ServiceCategory[],
  version: string,
): AgentCard {
  const url = `${origin}${A2A_PATH}`;
  return AgentCard.fromJSON({
    name: 'Handoff',
    description:
      'Hands a request off to a vetted human provider and follows it to the end. Each task is a ' +
      'handoff request: the provider’s questions, proposals and submitted milestones make it ' +
      'input-required, deliverables come back as artifacts.',
    provider: { organization: 'Handoff', url: origin },
    version,
    documentationUrl: `${origin}/docs`,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, pushNotifications: true },
    securitySchemes: {
      [AGENT_KEY_SCHEME]: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          bearerFormat: 'hk_live_… or hk_test_…',
          description: 'The integration’s agent key, as on the REST API.',
        },
      },
    },
    securityRequirements: [{ schemes: { [AGENT_KEY_SCHEME]: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json', 'text/uri-list'],
    skills: categories.map((category) => ({
      id: `handoff.${category.slug}`,
      name: `Hand off: ${category.name}`,
      description:
        `${category.description} Send the brief as text; a data part may add ` +
        `{"category": "${category.slug}"}, the customer and the budget (docs/a2a.md).`,
      tags: ['handoff', 'human', category.slug],
      examples: [`Find me someone for this (${category.name.toLowerCase()}): …`],
    })),
  });
}

/** A 0.x version (the header's absence means 0.3, as A2A says). */
const isLegacy = (version: string | undefined) => (version ?? '0.3').startsWith('0.');

/**
 * Serves the card: the 1.0 JSON for a client that asks for 1.0 (`A2A-Version`), else the 0.3
 * shape, translated by the SDK's legacy card router.
 */
export function serveAgentCard(card: AgentCard, req: Request, res: Response, next: NextFunction) {
  if (isLegacy(req.get(A2A_VERSION_HEADER))) {
    agentCardHandler({
      agentCardProvider: () => Promise.resolve(card),
      legacyCompat: { enabled: true },
      cache: { maxAge: 300 },
    })(req, res, next);
    return;
  }
  res.append('Vary', A2A_VERSION_HEADER);
  res.set('Cache-Control', 'public, max-age=300');
  res.json(AgentCard.toJSON(card));
}
