import type { RouteDefinition } from '../http/route.ts';
import type { LinkObject } from './links.ts';

/** The parts of an OpenAPI 3.1 document that the generator writes. */

export const OPENAPI_VERSION = '3.1.0';

export type JsonSchema = Record<string, unknown>;
export interface Reference {
  $ref: string;
}
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}
export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
  example?: string;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, { schema: JsonSchema }>;
  links?: Record<string, LinkObject>;
}
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  deprecated?: true;
  security: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: {
    required: boolean;
    description?: string;
    content: Record<string, { schema: JsonSchema; example?: unknown }>;
  };
  responses: Record<string, ResponseObject | Reference>;
}
export type HttpMethod = RouteDefinition['method'];
export type PathItem = Partial<Record<HttpMethod, Operation>>;
export interface OpenApiDocument {
  openapi: typeof OPENAPI_VERSION;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components: {
    securitySchemes: Record<string, Record<string, unknown>>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
  };
}

export interface BuildOptions {
  /**
   * Whether a route wants `X-Service-Request-Token`. By default a route says so with
   * `requestToken` (`owner` or `open`).
   */
  requestToken?: (route: RouteDefinition) => boolean;
}
