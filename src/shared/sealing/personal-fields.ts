import { FieldDeclaration, FieldKind, RetainedKind, fieldsOf } from '../event-sourcing/event-fields';
import { isSealed, sealedKeyId } from './sealer';

/** What a personal value reads as once its subject is erased (docs/privacy.md). */
export const ERASED = '[erased]';

const E164 = /^\+[1-9]\d{6,14}$/;
/** The fields that name the person a record is about (a lead, a contact, a call). */
const NUMBER_FIELDS = ['phone_number', 'client_phone_number'];
const SUBJECT_SEALED = /^sealed:v1:d[sr]_/;
const NAMED_NUMBER = /\+[1-9]\d{6,14}/;

/** What sealing personal values needs of the sealer: a number's key id and sealing under it. */
export interface SubjectSealing {
  subjectKeyId(organisationId: number, e164: string): string;
  /** The key of an organisation's values of a kind written in the ten minutes around `at`. */
  retentionKeyId(organisationId: number, kind: RetainedKind, at: Date): string;
  /** `erased` for a subject erased already: its later values are not kept. */
  sealForSubject(keyId: string, plain: string, erased: string): Promise<string>;
}

/** What opening them needs: undefined for a value whose subject is erased. */
export interface SubjectOpening {
  openForSubject(value: string): Promise<string | undefined>;
  /** Makes ready at once the keys of many values about to be opened (a batch of events). */
  prefetch(keyIds: Iterable<string>): Promise<void>;
  /** An erasure read from the log: the keys it destroyed are no longer held (docs/privacy.md). */
  forgetErasedIn(event: { type: string; data: unknown }): void;
}

const isPersonalKind = (kind: FieldKind) => kind !== 'plain' && kind !== 'secret';
const retainedAs = (kind: FieldKind): RetainedKind | undefined => (kind.startsWith('retained:') ? (kind.slice(9) as RetainedKind) : undefined);
const isPersonal = (declaration: FieldDeclaration): boolean =>
  typeof declaration === 'object' ? Object.values(declaration).some(isPersonal) : isPersonalKind(declaration);

const personalTypes = new Map<string, boolean>();

/** Whether events of this type carry personal values (those of other types are never walked). */
export function hasPersonalFields(type: string): boolean {
  let personal = personalTypes.get(type);
  if (personal === undefined) {
    personal = Object.values(fieldsOf(type) ?? {}).some(isPersonal);
    // Types are declared as their features load: remember only what a declaration said.
    if (fieldsOf(type)) personalTypes.set(type, personal);
  }
  return personal;
}

/**
 * What stays readable inside a personal value: ids name a record, not the person (a contact's id,
 * a lead's id in an answer); a status, a zone and times say nothing of who they are.
 */
const KEPT = new Set(['id', 'status', 'timezone', 'zones', 'created_at', 'updated_at']);
export const staysReadable = (field: string) => KEPT.has(field) || field.endsWith('_id');
const isIdentifier = staysReadable;

class PersonalSealer {
  constructor(
    private readonly sealing: SubjectSealing,
    private readonly organisationId: number,
    private readonly at: Date,
  ) {}

  keyOf(e164: string): string {
    return this.sealing.subjectKeyId(this.organisationId, e164);
  }

  /**
   * Each value of a personal field sealed on its own, so its shape stays (a variable's name, a
   * list's length): a number under its own key, an object naming a number (`phone_number`,
   * `client_phone_number`) under that number's, anything else under `subject`'s; with no subject known, only numbers are sealed.
   */
  async value(value: unknown, subject: string | undefined): Promise<unknown> {
    if (value === null || value === undefined || isSealed(value)) return value;
    if (typeof value === 'string' && E164.test(value)) return this.sealing.sealForSubject(this.keyOf(value), JSON.stringify(value), ERASED);
    // A text naming a number (a refused row's message) is that number's, when nothing else says whose.
    const named = typeof value === 'string' && !subject ? NAMED_NUMBER.exec(value) : null;
    if (named) return this.sealing.sealForSubject(this.keyOf(named[0]), JSON.stringify(value), ERASED);
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.value(item, subject)));
    if (typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const number = NUMBER_FIELDS.map((field) => record[field]).find((inner): inner is string => typeof inner === 'string' && E164.test(inner));
      const own = number ? this.keyOf(number) : subject;
      const entries = await Promise.all(
        Object.entries(record).map(async ([field, inner]) => [field, isIdentifier(field) ? inner : await this.value(inner, own)]),
      );
      return Object.fromEntries(entries);
    }
    return subject ? this.sealing.sealForSubject(subject, JSON.stringify(value), ERASED) : value;
  }

  /** A retained value: each of its values sealed under its kind's key for the time, then as any personal value. */
  async retained(value: unknown, kind: RetainedKind, subject: string | undefined): Promise<unknown> {
    if (value === null || value === undefined || isSealed(value)) return value;
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.retained(item, kind, subject)));
    if (typeof value === 'object') {
      const entries = await Promise.all(Object.entries(value).map(async ([field, inner]) => [field, await this.retained(inner, kind, subject)]));
      return Object.fromEntries(entries);
    }
    const forNow = await this.sealing.sealForSubject(this.sealing.retentionKeyId(this.organisationId, kind, this.at), JSON.stringify(value), ERASED);
    return subject ? this.sealing.sealForSubject(subject, JSON.stringify(forNow), ERASED) : forNow;
  }

  async ofKind(value: unknown, kind: FieldKind, subject: string | undefined): Promise<unknown> {
    const retained = retainedAs(kind);
    if (retained) return this.retained(value, retained, subject);
    return isPersonalKind(kind) ? this.value(value, subject) : value;
  }

  async field(value: unknown, declaration: FieldDeclaration, subject: string | undefined): Promise<unknown> {
    if (typeof declaration !== 'object') return this.ofKind(value, declaration, subject);
    const others = declaration['*'];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return others === undefined ? value : this.field(value, others, subject);
    const record = value as Record<string, unknown>;
    // A record naming a number is that number's, as in `value`.
    const number = NUMBER_FIELDS.map((field) => record[field]).find((inner): inner is string => typeof inner === 'string' && E164.test(inner));
    const own = number ? this.keyOf(number) : subject;
    const inner = { ...record };
    for (const [field, item] of Object.entries(record)) {
      const kind = declaration[field] ?? (isIdentifier(field) ? undefined : others);
      if (kind !== undefined && item !== undefined) inner[field] = await this.field(item, kind, own);
    }
    return inner;
  }
}

/**
 * docs/privacy.md: an event's data as it is written to the log, each personal value sealed under
 * its subject's key (crypto-shredding: erasing the subject destroys the key). The event's subject
 * is the number in its `subject` field, else its stream's (`streamSubject`); answered with the data
 * for the stream to remember.
 */
export async function withPersonalSealed(
  type: string,
  data: unknown,
  organisationId: number | undefined,
  streamSubject: string | undefined,
  sealing: SubjectSealing,
  at: Date,
): Promise<{ data: unknown; subject: string | undefined }> {
  const fields = fieldsOf(type);
  if (!fields || organisationId === undefined || data === null || typeof data !== 'object' || !hasPersonalFields(type)) return { data, subject: streamSubject };
  const sealer = new PersonalSealer(sealing, organisationId, at);
  const record = data as Record<string, unknown>;
  const named = Object.entries(fields).find(([field, kind]) => kind === 'subject' && typeof record[field] === 'string' && E164.test(record[field] as string));
  const subject = named ? sealer.keyOf(record[named[0]] as string) : streamSubject;
  const out = { ...record };
  for (const [field, declaration] of Object.entries(fields)) {
    if (out[field] !== undefined && isPersonal(declaration)) out[field] = await sealer.field(out[field], declaration, subject);
  }
  return { data: out, subject };
}

function sealedIn(value: unknown, found: Set<string>): void {
  if (typeof value === 'string') {
    if (SUBJECT_SEALED.test(value)) found.add(value);
  } else if (Array.isArray(value)) for (const item of value) sealedIn(item, found);
  else if (value !== null && typeof value === 'object') for (const field of Object.keys(value)) sealedIn((value as Record<string, unknown>)[field], found);
}

/** `value` with the strings `plain` names replaced; what holds none of them is the same object, not a copy. */
function replaced(value: unknown, plain: Map<string, unknown>): unknown {
  if (typeof value === 'string') return plain.has(value) ? plain.get(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const inner = replaced(item, plain);
      if (inner !== item) (copy ??= [...value])[i] = inner;
    });
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const field of Object.keys(record)) {
    const inner = replaced(record[field], plain);
    if (inner !== record[field]) (copy ??= { ...record })[field] = inner;
  }
  return copy ?? record;
}

/** A sealed value opened, and opened again while it was sealed twice (a retained value): `[erased]` when a key is gone. */
async function openedValue(sealed: string, opening: SubjectOpening): Promise<unknown> {
  const opened = await opening.openForSubject(sealed);
  if (opened === undefined) return ERASED;
  const value = JSON.parse(opened) as unknown;
  return typeof value === 'string' && SUBJECT_SEALED.test(value) ? openedValue(value, opening) : value;
}

const NONE: ReadonlySet<string> = new Set();

/** The sealed values an event's data holds (not those sealed inside them). */
export function sealedValuesIn(type: string, data: unknown): ReadonlySet<string> {
  if (!hasPersonalFields(type)) return NONE;
  const found = new Set<string>();
  sealedIn(data, found);
  return found;
}

/** The ids of the subjects' keys values are sealed under. */
export const subjectKeysOf = (values: Iterable<string>): string[] => [...values].flatMap((sealed) => sealedKeyId(sealed) ?? []);

/**
 * An event's data as it is read: its personal values opened, those of an erased subject `[erased]`.
 * `found`: its sealed values, when the caller has looked for them already.
 */
export async function withPersonalOpened<Data>(type: string, data: Data, opening: SubjectOpening, found = sealedValuesIn(type, data)): Promise<Data> {
  if (found.size === 0) return data;
  const plain = new Map<string, unknown>();
  for (const sealed of found) plain.set(sealed, await openedValue(sealed, opening));
  return replaced(data, plain) as Data;
}
