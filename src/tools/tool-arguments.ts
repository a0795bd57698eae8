import { FieldErrors } from '../shared/validation/validation.pipe';
import { SchemaType, ToolSpec } from './tool.events';

const TYPE_MESSAGES: Record<SchemaType, [check: (v: unknown) => boolean, message: string]> = {
  string: [(v) => typeof v === 'string', 'must be a string'],
  number: [(v) => typeof v === 'number' && Number.isFinite(v), 'must be a number'],
  boolean: [(v) => typeof v === 'boolean', 'must be true or false'],
};

/**
 * Checks the arguments the assistant extracted against the tool's schema: every schema
 * parameter is required and typed, and nothing outside the schema is sent.
 */
export function checkToolArguments(schema: ToolSpec['schema'], args: unknown): FieldErrors {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { arguments: ['The arguments field must be an array.'] };
  const given = args as Record<string, unknown>;
  const errors: FieldErrors = {};
  for (const param of schema) {
    const field = `arguments.${param.name}`;
    const attribute = field.replace(/_/g, ' ');
    if (given[param.name] === undefined || given[param.name] === null) errors[field] = [`The ${attribute} field is required.`];
    else if (!TYPE_MESSAGES[param.type][0](given[param.name])) errors[field] = [`The ${attribute} field ${TYPE_MESSAGES[param.type][1]}.`];
  }
  const known = new Set(schema.map((p) => p.name));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) errors[`arguments.${key}`] = [`The arguments.${key.replace(/_/g, ' ')} field is not in the tool schema.`];
  }
  return errors;
}
