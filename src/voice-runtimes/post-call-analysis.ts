/** A field the assistant asks the runtime to extract after the call (its `post_call_schema`). */
export interface PostCallField {
  name: string;
  type: 'string' | 'number' | 'bool';
}

const fits = (type: PostCallField['type'], value: unknown) =>
  type === 'bool' ? typeof value === 'boolean' : type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === 'string';

/** docs/real-calls.md: the runtime's answers for the assistant's fields; a value of the wrong type, or of no field, is dropped. */
export function analysisValues(answers: unknown, fields: readonly PostCallField[]): Record<string, unknown> {
  if (answers === null || typeof answers !== 'object' || Array.isArray(answers)) return {};
  const given = answers as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(given, field.name) && fits(field.type, given[field.name])) kept[field.name] = given[field.name];
  return kept;
}
