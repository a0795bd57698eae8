import { declareFields } from '../event-sourcing/event-fields';
import { DomainEvent } from '../event-sourcing/decider';
import { ERASED, sealedValuesIn, subjectKeysOf, withPersonalOpened, withPersonalOpenedNow, withPersonalSealed, withPersonalSealedNow } from './personal-fields';
import { Sealer } from './sealer';
import { KEY_NOT_HELD } from './sealed-values';
import { sealerForEachTest } from '../../testing/sealer.fixture';

type Met = DomainEvent<
  'PersonMet',
  {
    meeting_id: number;
    phone_number: string;
    variables: Record<string, unknown>;
    contacts: Array<{ id: string; phone_number: string; name: string }>;
    room: string;
  }
>;
type Heard = DomainEvent<'PersonHeard', { meeting_id: number; transcript: Array<{ role: string; message: string }>; note: string }>;
type Recorded = DomainEvent<'PersonRecorded', { meeting_id: number; transcript: string; recording_url: string }>;
type Sent = DomainEvent<'PersonSent', { meeting_id: number; body: Record<string, unknown> }>;
declareFields<Met | Heard | Recorded | Sent>({
  PersonSent: { meeting_id: 'plain', body: { '*': 'personal', call: { '*': 'personal', transcript: 'retained:transcripts' } } },
  PersonRecorded: { meeting_id: 'plain', transcript: 'retained:transcripts', recording_url: 'retained:recordings' },
  PersonMet: { meeting_id: 'plain', phone_number: 'subject', variables: 'personal', contacts: 'personal', room: 'plain' },
  PersonHeard: { meeting_id: 'plain', transcript: 'personal', note: 'plain' },
});

const AT = new Date('2026-03-02T10:04:00Z');

/** The value as JSON with its sealed values cut out: random ciphertext may spell a short name by chance. */
const plainParts = (value: unknown) => JSON.stringify(value).replace(/sealed:v[12]:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+/g, 'sealed');

const met: Met['data'] = {
  meeting_id: 4,
  phone_number: '+14155550100',
  variables: { name: 'Ada', age: 36, vip: true },
  contacts: [{ id: 'c1', phone_number: '+14155550111', name: 'Bob' }],
  room: 'blue',
};

describe('personal values in the log', () => {
  const made = sealerForEachTest('personal-');
  let sealer: Sealer;
  beforeEach(() => (sealer = made.sealer));

  const ada = () => sealer.subjectKeyId(9, '+14155550100');
  const bob = () => sealer.subjectKeyId(9, '+14155550111');

  it('given an event naming its subject, when sealed: each personal value under its person key, shapes, ids and plain fields kept', async () => {
    const { data, subject } = await withPersonalSealed('PersonMet', met, 9, undefined, sealer, AT);
    const sealed = data as Met['data'];
    expect(subject).toBe(ada());
    expect(plainParts(sealed)).not.toMatch(/Ada|Bob|4155550|:36[,}]/);
    expect(sealed).toMatchObject({ meeting_id: 4, room: 'blue', contacts: [{ id: 'c1' }] });
    expect(Object.keys(sealed.variables)).toEqual(['name', 'age', 'vip']);
    expect(sealed.phone_number.startsWith(`sealed:v2:${ada()}:`)).toBe(true);
    expect((sealed.variables.age as string).startsWith(`sealed:v2:${ada()}:`)).toBe(true);
    expect(sealed.contacts[0].name.startsWith(`sealed:v2:${bob()}:`)).toBe(true);
    expect(await withPersonalOpened('PersonMet', sealed, sealer)).toEqual(met);
  });

  it('given a later event of the stream, when sealed: under the stream subject; with none known, left as it is', async () => {
    const heard = { meeting_id: 4, transcript: [{ role: 'user', message: 'hello' }], note: 'n' };
    const { data } = await withPersonalSealed('PersonHeard', heard, 9, ada(), sealer, AT);
    expect(plainParts(data)).not.toContain('hello');
    expect(await withPersonalOpened('PersonHeard', data, sealer)).toEqual(heard);
    expect((await withPersonalSealed('PersonHeard', heard, 9, undefined, sealer, AT)).data).toEqual(heard);
  });

  it("given a subject's key destroyed, when read: each of its values reads [erased], another person's stay", async () => {
    const { data } = await withPersonalSealed('PersonMet', met, 9, undefined, sealer, AT);
    await sealer.eraseSubject(ada());
    expect(await withPersonalOpened('PersonMet', data, sealer)).toEqual({
      meeting_id: 4,
      phone_number: ERASED,
      variables: { name: ERASED, age: ERASED, vip: ERASED },
      contacts: [{ id: 'c1', phone_number: '+14155550111', name: 'Bob' }],
      room: 'blue',
    });
  });

  it("given retained values, when their kind's key for the time is destroyed: those read [erased], the other kind and other times stay", async () => {
    const recorded = { meeting_id: 4, transcript: 'I am Ada', recording_url: 'https://rec.example/ada.wav' };
    const { data } = await withPersonalSealed('PersonRecorded', recorded, 9, ada(), sealer, AT);
    const later = (await withPersonalSealed('PersonRecorded', recorded, 9, ada(), sealer, new Date(AT.getTime() + 10 * 60_000))).data;
    expect(plainParts(data)).not.toMatch(/Ada|rec\.example/);
    expect(await withPersonalOpened('PersonRecorded', data, sealer)).toEqual(recorded);
    expect(sealer.retentionKeyId(9, 'transcripts', AT)).toBe('dr_9_transcripts_202603021000');

    await sealer.eraseSubject(sealer.retentionKeyId(9, 'transcripts', AT));
    expect(await withPersonalOpened('PersonRecorded', data, sealer)).toEqual({ ...recorded, transcript: ERASED });
    expect(await withPersonalOpened('PersonRecorded', later, sealer)).toEqual(recorded);
    // Erasing the person reaches retained values too.
    await sealer.eraseSubject(ada());
    expect(await withPersonalOpened('PersonRecorded', later, sealer)).toEqual({ meeting_id: 4, transcript: ERASED, recording_url: ERASED });
  });

  it('given a body declared field by field under defaults, when sealed: each record under its own number, its retained values also under their kind', async () => {
    const body = {
      event: 'call.ended',
      call: { id: 7, client_phone_number: '+14155550111', transcript: 'Bob speaking', note: 'Bob note' },
      lead: { id: 2, phone_number: '+14155550100', name: 'Ada' },
    };
    const { data } = await withPersonalSealed('PersonSent', { meeting_id: 4, body }, 9, ada(), sealer, AT);
    expect(plainParts(data)).not.toMatch(/Bob|Ada|call\.ended|\+1415/);
    const sealed = data as Sent['data'];
    expect([(sealed.body.call as { id: number }).id, (sealed.body.lead as { id: number }).id]).toEqual([7, 2]);
    expect(await withPersonalOpened('PersonSent', data, sealer)).toEqual({ meeting_id: 4, body });

    await sealer.eraseSubject(sealer.retentionKeyId(9, 'transcripts', AT));
    const call = { ...body.call, transcript: ERASED };
    expect(await withPersonalOpened('PersonSent', data, sealer)).toEqual({ meeting_id: 4, body: { ...body, call } });
    // The call is Bob's (its number), the lead Ada's: erasing Bob leaves Ada's lead.
    await sealer.eraseSubject(bob());
    const opened = (await withPersonalOpened('PersonSent', data, sealer)) as Sent['data'];
    expect(opened.body.call).toEqual({ id: 7, client_phone_number: ERASED, transcript: ERASED, note: ERASED });
    expect(opened.body.lead).toEqual(body.lead);
  });
  it("given another instance's reader, when a batch is read: its people's keys are fetched once, a retained value's kind key when reached, and an erasure followed", async () => {
    const recorded = { meeting_id: 4, transcript: 'I am Ada', recording_url: 'https://rec.example/ada.wav' };
    const first = (await withPersonalSealed('PersonMet', met, 9, undefined, sealer, AT)).data;
    const second = (await withPersonalSealed('PersonRecorded', recorded, 9, ada(), sealer, AT)).data;
    const reader = await made.another();
    await reader.prefetch(subjectKeysOf(sealedValuesIn('PersonMet', first)));
    const read = jest.spyOn(made.keys, 'get');
    expect(await withPersonalOpened('PersonMet', first, reader)).toEqual(met);
    expect(read).not.toHaveBeenCalled();
    // A retained value is sealed twice: its kind's key, not among the batch's, is read then.
    expect(await withPersonalOpened('PersonRecorded', second, reader)).toEqual(recorded);
    expect(read.mock.calls).toEqual([[sealer.retentionKeyId(9, 'transcripts', AT)], [sealer.retentionKeyId(9, 'recordings', AT)]]);

    await sealer.eraseSubject(ada());
    reader.forgetErasedIn({ type: 'SubjectErased', data: { subject_key: ada() } });
    expect(await withPersonalOpened('PersonMet', first, reader)).toMatchObject({ phone_number: ERASED, contacts: met.contacts });
  });

  it('given data opened, the data read is left as it was and what held no sealed value is the same object', async () => {
    const heard = {
      meeting_id: 4,
      transcript: [
        { role: 'user', message: 'hello' },
        { id: 7, status: 'said' },
      ],
      note: 'n',
    };
    const { data } = await withPersonalSealed('PersonHeard', heard, 9, ada(), sealer, AT);
    const before = JSON.stringify(data);
    const opened = (await withPersonalOpened('PersonHeard', data, await made.another())) as typeof heard;
    expect(opened).toEqual(heard);
    expect(JSON.stringify(data)).toBe(before);
    const sealedTranscript = (data as typeof heard).transcript;
    expect(opened.transcript).not.toBe(sealedTranscript);
    expect(opened.transcript[1]).toBe(sealedTranscript[1]);
    expect(await withPersonalOpened('PersonHeard', heard, sealer)).toBe(heard);
  });

  it('given a new person, when sealed without waiting: the keys to hold are named and nothing is made; once held, sealed at once', async () => {
    const added = jest.spyOn(made.keys, 'add');
    expect(withPersonalSealedNow('PersonMet', met, 9, undefined, sealer, AT)).toEqual({ unheld: new Set([ada(), bob()]) });
    expect(added).not.toHaveBeenCalled();
    await sealer.holdKeys([ada(), bob()]);
    const atOnce = withPersonalSealedNow('PersonMet', met, 9, undefined, sealer, AT) as { data: Met['data']; subject: string };
    expect(atOnce.subject).toBe(ada());
    expect(atOnce.data.phone_number.startsWith(`sealed:v2:${ada()}:`)).toBe(true);
    expect(await withPersonalOpened('PersonMet', atOnce.data, await made.another())).toEqual(met);
    // A retained value needs its kind's key for the time too; an erased subject's values are not kept.
    const recorded = { meeting_id: 4, transcript: 'hi', recording_url: 'https://r.example/1' };
    const unheld = withPersonalSealedNow('PersonRecorded', recorded, 9, ada(), sealer, AT) as { unheld: Set<string> };
    expect([...unheld.unheld].sort()).toEqual([sealer.retentionKeyId(9, 'recordings', AT), sealer.retentionKeyId(9, 'transcripts', AT)].sort());
    await sealer.eraseSubject(ada());
    expect(withPersonalSealedNow('PersonMet', met, 9, undefined, sealer, AT)).toMatchObject({ data: { phone_number: ERASED, variables: { name: ERASED } } });
  });

  it('given every key held, when read without waiting: opened as a wait would open it; a key not held is said so, and read by the wait', async () => {
    const first = (await withPersonalSealed('PersonMet', met, 9, undefined, sealer, AT)).data;
    const second = (await withPersonalSealed('PersonRecorded', { meeting_id: 4, transcript: 'hi', recording_url: 'https://r.example/1' }, 9, ada(), sealer, AT))
      .data;
    expect(withPersonalOpenedNow('PersonMet', first, sealer)).toEqual(met);
    expect(withPersonalOpenedNow('PersonRecorded', second, sealer)).toEqual({ meeting_id: 4, transcript: 'hi', recording_url: 'https://r.example/1' });
    expect(withPersonalOpenedNow('PersonHeard', { meeting_id: 1, transcript: [], note: 'n' }, sealer)).toEqual({ meeting_id: 1, transcript: [], note: 'n' });

    const reader = await made.another();
    const read = jest.spyOn(made.keys, 'get');
    expect(withPersonalOpenedNow('PersonMet', first, reader)).toBe(KEY_NOT_HELD);
    expect(read).not.toHaveBeenCalled();
    expect(await withPersonalOpened('PersonMet', first, reader)).toEqual(met);
    expect(withPersonalOpenedNow('PersonMet', first, reader)).toEqual(met);

    // An erasure this instance knows of reads [erased] at once.
    await sealer.eraseSubject(ada());
    reader.forgetErasedIn({ type: 'SubjectErased', data: { subject_key: ada() } });
    expect(withPersonalOpenedNow('PersonMet', first, reader)).toMatchObject({ phone_number: ERASED, variables: { name: ERASED }, contacts: met.contacts });
  });
});
