import { FieldErrors } from '../domain-error';

const PROTO = '__proto__';

/**
 * A JSON body may carry `__proto__` as a plain key, which an assignment (as class-transformer
 * makes) would read as the object's prototype. At the top it is an unknown field and is left
 * out like any other; inside a field's value it is refused on that field, never dropped.
 */
export function setAsideProtoKeys(body: Record<string, unknown>): { body: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!Object.hasOwn(body, PROTO) && !Object.values(body).some(holdsProtoKey)) return { body, errors };
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (key === PROTO) continue;
    if (holdsProtoKey(body[key])) errors[key] = [`The ${key.replace(/_/g, ' ')} field must not contain the key ${PROTO}.`];
    else kept[key] = body[key];
  }
  return { body: kept, errors };
}

/** Whether a value holds an own `__proto__` key at any depth (depth is bounded by the body parser). */
function holdsProtoKey(value: unknown): boolean {
  const pending = [value];
  while (pending.length) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object') continue;
    if (!Array.isArray(item) && Object.hasOwn(item, PROTO)) return true;
    pending.push(...Object.values(item));
  }
  return false;
}
