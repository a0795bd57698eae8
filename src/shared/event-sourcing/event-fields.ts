import { DomainEvent } from './decider';

/**
 * docs/privacy.md: what a field of an event's data holds. `personal`: a value about the person
 * called (a number, a name, what they said), sealed under that person's key; `subject`: the
 * number the event is about, personal, and the person whose key seals the event's other personal
 * values and those of its stream's later events; `secret`: a credential, sealed at rest;
 * `plain`: none of these.
 */
export type FieldKind = 'plain' | 'personal' | 'subject' | 'secret' | `retained:${RetainedKind}`;

/**
 * docs/privacy.md: a call's values an organisation keeps for a while only (its `retention`
 * settings): `retained:<kind>` is personal, and sealed also under the key of its kind and the ten
 * minutes it was written in, destroyed when those fall due.
 */
export type RetainedKind = 'transcripts' | 'recordings' | 'variables';
export const RETAINED_KINDS: readonly RetainedKind[] = ['transcripts', 'recordings', 'variables'];
/**
 * An object field's own fields, as deep as needed: those named are as said; the others as `'*'`
 * says (a value of another shape too), else plain.
 */
export interface NestedKinds {
  readonly [field: string]: FieldDeclaration;
}
export type FieldDeclaration = FieldKind | NestedKinds;

/**
 * Every field of every type of an event union, each said to be plain, personal or secret: the
 * compiler refuses a declaration that leaves out a type or a field (optional ones included), or
 * names one the union does not have.
 */
export type FieldsOf<Event extends DomainEvent> = {
  [Type in Event['type']]: { [Field in keyof Required<Extract<Event, { type: Type }>['data']>]: FieldDeclaration };
};

const declared = new Map<string, Readonly<Record<string, FieldDeclaration>>>();

/** Declares the fields of an event union (next to its events); answers its types, as a list. */
export function declareFields<Event extends DomainEvent>(fields: FieldsOf<Event>): readonly Event['type'][] {
  for (const [type, kinds] of Object.entries(fields)) declared.set(type, kinds as Record<string, FieldDeclaration>);
  return Object.keys(fields) as Event['type'][];
}

/** The declaration of an event type's fields; undefined for a type never declared. */
export const fieldsOf = (type: string): Readonly<Record<string, FieldDeclaration>> | undefined => declared.get(type);

/** Every event type declared so far (each feature declares its own when its events module loads). */
export const declaredEventTypes = (): string[] => [...declared.keys()];
