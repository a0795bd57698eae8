import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

export const toolStream = (toolId: number) => `tool-${toolId}`;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
export type SchemaType = 'string' | 'number' | 'boolean';
export const SCHEMA_TYPES: readonly SchemaType[] = ['string', 'number', 'boolean'];

export interface ToolSpec {
  name: string;
  description: string;
  endpoint: string;
  method: HttpMethod;
  timeout: number;
  headers: Array<{ name: string; value: string }>;
  schema: Array<{ name: string; type: SchemaType; description: string }>;
}

export type ToolCreated = DomainEvent<'ToolCreated', { tool_id: number; user_id: number; tool: ToolSpec }>;
export type ToolUpdated = DomainEvent<'ToolUpdated', { tool_id: number; user_id: number; changes: Partial<ToolSpec> }>;
export type ToolDeleted = DomainEvent<'ToolDeleted', { tool_id: number; user_id: number }>;
export type ToolEvent = ToolCreated | ToolUpdated | ToolDeleted;

export const TOOL_EVENT_TYPES = declareFields<ToolEvent>({
  ToolCreated: { tool_id: 'plain', user_id: 'plain', tool: { headers: 'secret' } },
  ToolUpdated: { tool_id: 'plain', user_id: 'plain', changes: { headers: 'secret' } },
  ToolDeleted: { tool_id: 'plain', user_id: 'plain' },
});
