import { FieldDeclaration, FieldKind, RetainedKind, fieldsOf } from '../event-sourcing/event-fields';
import { KEY_NOT_HELD, isSealed, sealedKeyId } from './sealed-values';

/** What a personal value reads as once its subject is erased (docs/privacy.md). */
export const ERASED = '[erased]';

const E164 = /^\+[1-9]\d{6,14}$/;
/** The fields that name the person a record is about (a lead, a contact, a call). */
const NUMBER_FIELDS = ['phone_number', 'client_phone_number'];
const SUBJECT_SEALED = /^sealed:v[12]:d[sr]_/;
const NAMED_NUMBER = /\+[1-9]\d{6,14}/;

/** What sealing personal values needs of the sealer: a number's key id and sealing under it. */
export interface SubjectSealing {
  subjectKeyId(organisationId: number, e164: string): string;
  /** The key of an organisation's values of a kind written in the ten minutes around `at`. */
  retentionKeyId(organisationId: number, kind: RetainedKind, at: Date): string;
  /** Sealed under a key this instance holds: `erased` for a subject erased already (its later values are not kept), KEY_NOT_HELD for a key not held. */
  sealHeld(keyId: string, plain: string, erased: string): string | typeof KEY_NOT_HELD;
  /** Makes ready the keys values are about to be sealed under: made at their subject's first value, else read. */
  holdKeys(keyIds: Iterable<string>): Promise<void>;
}

/** What opening them needs: undefined for a value whose subject is erased. */
export interface SubjectOpening {
  openForSubject(value: string): Promise<string | undefined>;
  /** The same without waiting, from the keys held: KEY_NOT_HELD when a key must be read first. */
  openHeld(value: string): string | undefined | typeof KEY_NOT_HELD;
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

/**
 * Seals an event's personal values with the keys this instance holds, at once. A value whose key
 * it does not hold is left as it was and the key noted (`unheld`): the caller makes those ready
 * and seals the event again, so most events (their people's keys held) are sealed without a wait.
 */
class PersonalSealer {
  readonly unheld = new Set<string>();

  constructor(
    private readonly sealing: SubjectSealing,
    private readonly organisationId: number,
    private readonly at: Date,
  ) {}

  keyOf(e164: string): string {
    return this.sealing.subjectKeyId(this.organisationId, e164);
  }

  private seal(keyId: string, value: unknown): unknown {
    const sealed = this.sealing.sealHeld(keyId, JSON.stringify(value), ERASED);
    if (sealed !== KEY_NOT_HELD) return sealed;
    this.unheld.add(keyId);
    return value;
  }

  /**
   * Each value of a personal field sealed on its own, so its shape stays (a variable's name, a
   * list's length): a number under its own key, an object naming a number (`phone_number`,
   * `client_phone_number`) under that number's, anything else under `subject`'s; with no subject known, only numbers are sealed.
   */
  value(value: unknown, subject: string | undefined): unknown {
    if (value === null || value === undefined || isSealed(value)) return value;
    if (typeof value === 'string' && E164.test(value)) return this.seal(this.keyOf(value), value);
    // A text naming a number (a refused row's message) is that number's, when nothing else says whose.
    const named = typeof value === 'string' && !subject ? NAMED_NUMBER.exec(value) : null;
    if (named) return this.seal(this.keyOf(named[0]), value);
    if (Array.isArray(value)) return value.map((item) => this.value(item, subject));
    if (typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const own = this.ownKey(record, subject);
      return Object.fromEntries(Object.entries(record).map(([field, inner]) => [field, isIdentifier(field) ? inner : this.value(inner, own)]));
    }
    return subject ? this.seal(subject, value) : value;
  }

  /** A retained value: each of its values sealed under its kind's key for the time, then as any personal value. */
  retained(value: unknown, kind: RetainedKind, subject: string | undefined): unknown {
    if (value === null || value === undefined || isSealed(value)) return value;
    if (Array.isArray(value)) return value.map((item) => this.retained(item, kind, subject));
    if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, this.retained(inner, kind, subject)]));
    const forNow = this.seal(this.sealing.retentionKeyId(this.organisationId, kind, this.at), value);
    return subject ? this.seal(subject, forNow) : forNow;
  }

  ofKind(value: unknown, kind: FieldKind, subject: string | undefined): unknown {
    const retained = retainedAs(kind);
    if (retained) return this.retained(value, retained, subject);
    return isPersonalKind(kind) ? this.value(value, subject) : value;
  }

  field(value: unknown, declaration: FieldDeclaration, subject: string | undefined): unknown {
    if (typeof declaration !== 'object') return this.ofKind(value, declaration, subject);
    const others = declaration['*'];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return others === undefined ? value : this.field(value, others, subject);
    const record = value as Record<string, unknown>;
    const own = this.ownKey(record, subject);
    const inner = { ...record };
    for (const [field, item] of Object.entries(record)) {
      const kind = declaration[field] ?? (isIdentifier(field) ? undefined : others);
      if (kind !== undefined && item !== undefined) inner[field] = this.field(item, kind, own);
    }
    return inner;
  }

  /** A record naming a number (`phone_number`, `client_phone_number`) is that number's. */
  private ownKey(record: Record<string, unknown>, subject: string | undefined): string | undefined {
    const number = NUMBER_FIELDS.map((field) => record[field]).find((inner): inner is string => typeof inner === 'string' && E164.test(inner));
    return number ? this.keyOf(number) : subject;
  }
}

/**
 * docs/privacy.md: an event's data as it is written to the log, each personal value sealed under
 * its subject's key (crypto-shredding: erasing the subject destroys the key). The event's subject
 * is the number in its `subject` field, else its stream's (`streamSubject`); answered with the data
 * for the stream to remember.
 */
export async function withPersonalSealed(...args: Parameters<typeof withPersonalSealedNow>): Promise<{ data: unknown; subject: string | undefined }> {
  const sealing = args[4];
  for (let tries = 0; ; tries++) {
    const sealed = withPersonalSealedNow(...args);
    if (!('unheld' in sealed)) return sealed;
    if (tries === 2) throw new Error(`the keys ${[...sealed.unheld].join(', ')} could not be held`);
    await sealing.holdKeys(sealed.unheld);
  }
}

/** `withPersonalSealed` with the keys held, without waiting: else the keys it must hold first. */
export function withPersonalSealedNow(
  type: string,
  data: unknown,
  organisationId: number | undefined,
  streamSubject: string | undefined,
  sealing: SubjectSealing,
  at: Date,
): { data: unknown; subject: string | undefined } | { unheld: ReadonlySet<string> } {
  const fields = fieldsOf(type);
  if (!fields || organisationId === undefined || data === null || typeof data !== 'object' || !hasPersonalFields(type)) return { data, subject: streamSubject };
  const sealer = new PersonalSealer(sealing, organisationId, at);
  const record = data as Record<string, unknown>;
  const named = Object.entries(fields).find(([field, kind]) => kind === 'subject' && typeof record[field] === 'string' && E164.test(record[field] as string));
  const subject = named ? sealer.keyOf(record[named[0]] as string) : streamSubject;
  const out = { ...record };
  for (const [field, declaration] of Object.entries(fields)) {
    if (out[field] !== undefined && isPersonal(declaration)) out[field] = sealer.field(out[field], declaration, subject);
  }
  return sealer.unheld.size ? { unheld: sealer.unheld } : { data: out, subject };
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
  return readValue(await opening.openForSubject(sealed), (inner) => openedValue(inner, opening));
}

/** `openedValue` from the keys held: KEY_NOT_HELD when a key must be read first. */
function openedValueNow(sealed: string, opening: SubjectOpening): unknown {
  const opened = opening.openHeld(sealed);
  return opened === KEY_NOT_HELD ? KEY_NOT_HELD : readValue(opened, (inner) => openedValueNow(inner, opening));
}

/** An opened text as its value: `[erased]` for none, and a value sealed inside it opened by `inner`. */
function readValue(opened: string | undefined, inner: (sealed: string) => unknown): unknown {
  if (opened === undefined) return ERASED;
  const value = JSON.parse(opened) as unknown;
  return typeof value === 'string' && SUBJECT_SEALED.test(value) ? inner(value) : value;
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

/**
 * `withPersonalOpened` without waiting, when every key its values need is held (most reads: what
 * was just written or read), so a reader of many events makes no promise for each: KEY_NOT_HELD
 * when a key must be read first.
 */
export function withPersonalOpenedNow<Data>(type: string, data: Data, opening: SubjectOpening, found = sealedValuesIn(type, data)): Data | typeof KEY_NOT_HELD {
  if (found.size === 0) return data;
  const plain = new Map<string, unknown>();
  for (const sealed of found) {
    const value = openedValueNow(sealed, opening);
    if (value === KEY_NOT_HELD) return KEY_NOT_HELD;
    plain.set(sealed, value);
  }
  return replaced(data, plain) as Data;
}
