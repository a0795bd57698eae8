import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { Schema } from './infer-schema';

type IOptions = NonNullable<Parameters<typeof validationMetadatasToSchemas>[0]>;

/** Our own rules (`shared/validation/rules.ts`, ValidateBy names) as JSON schema. */
const OWN_RULES: Record<string, Schema> = {
  required: {},
  isInt: { type: 'integer', maximum: Number.MAX_SAFE_INTEGER },
  phone: { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164, with its country code' },
  variables: { type: 'object', maxProperties: 100, additionalProperties: { description: 'a string, number, boolean or null' } },
  object: { type: 'object' },
  url: { type: 'string', format: 'uri', maxLength: 2048 },
  timezone: { type: 'string', description: 'an IANA zone (America/New_York) or UTC' },
  ids: { type: 'array', items: { type: 'integer', minimum: 1 } },
  holidayCodes: { type: 'array', items: { type: 'string', description: 'a date-holidays country or region code: US, US-CA, DE' } },
};

const options: IOptions = {
  classTransformerMetadataStorage: defaultMetadataStorage,
  refPointerPrefix: '#/components/schemas/',
  additionalConverters: {
    customValidation: (meta: ValidationMetadata) => OWN_RULES[meta.name ?? ''] ?? {},
    // `Nullable()` (class-validator's IsOptional): null is taken there; `Optional()` takes only absence.
    conditionalValidation: (meta: ValidationMetadata) => (meta.name === 'isOptional' ? { nullable: true } : {}),
    // Without a `type`: they bound integers too (the library's own say `number`).
    min: (meta: ValidationMetadata) => ({ minimum: meta.constraints[0] }),
    max: (meta: ValidationMetadata) => ({ maximum: meta.constraints[0] }),
    // The library's own is a oneOf of a date and a date-time, which a date-time matches twice.
    isIso8601: () => ({ type: 'string', format: 'date-time', description: 'ISO 8601: a date, or a date and time' }),
  } as IOptions['additionalConverters'],
};

/** Every validated class's schema, keyed by class name, for `components.schemas`. */
export function allRequestSchemas(): Record<string, Schema> {
  const schemas = validationMetadatasToSchemas(options) as Record<string, Schema>;
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, refsAlone(schema)]));
}

/** One class's schema, its parents' rules included (`PartialType` makes every field optional). */
export function requestSchema(dto: new () => unknown): Schema {
  return refsAlone(targetConstructorToSchema(dto, options) as Schema);
}

/**
 * OpenAPI 3.0 ignores whatever stands beside a `$ref` (a nested DTO's `nullable`, its `type`):
 * such a reference is wrapped in `allOf`, the rest kept beside it.
 */
function refsAlone(schema: Schema): Schema {
  const { $ref, type, ...rest } = schema as Schema & { $ref?: string };
  const out: Schema = $ref ? (Object.keys(rest).length ? { allOf: [{ $ref }], ...(type ? { type } : {}), ...rest } : ({ $ref } as Schema)) : { ...schema };
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([key, child]) => [key, refsAlone(child)]));
  if (out.items) out.items = refsAlone(out.items);
  return out;
}
