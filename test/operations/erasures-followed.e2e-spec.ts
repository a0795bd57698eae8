import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { KEY_STORE, KeyStore } from '../../src/shared/ports/key-store.port';
import { Sealer } from '../../src/shared/sealing/sealer';
import { eventually } from '../support/fake-provider';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * docs/privacy.md, erasure step 4: a running service drops from memory a person's key another
 * instance destroyed as soon as that instance records the erasure, though nothing of its own reads
 * the log there (its projections stopped here, as on an instance whose projections another runs).
 */
describe('a running service follows the erasures other instances record', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("no longer opens the person's values once the erasure is in the log", async () => {
    t = await startTestApp();
    const sealer = t.app.get(Sealer);
    const keys = t.app.get<KeyStore>(KEY_STORE);
    const events = t.app.get<EventStore>(EVENT_STORE);
    await t.app.get(ProjectionRunner).stop();
    const subject_key = sealer.subjectKeyId(99, '+14155550199');
    const sealed = await sealer.sealForSubject(subject_key, '"Quinn"', '[erased]');
    // Another instance destroys the key in the shared key store: this one still holds it.
    await keys.erase(subject_key, new Date().toISOString());
    expect(await sealer.openForSubject(sealed)).toBe('"Quinn"');
    const erased = { erasure_id: 1, user_id: 99, subject_key, leads: [], contacts: [], calls: [], import_rows: [] };
    await events.append(
      'erasure-1',
      [{ type: 'SubjectErased', data: { ...erased, requested_by: { type: 'user', id: 1 }, completed_at: new Date().toISOString() } }],
      'no_stream',
    );
    await eventually(async () => (await sealer.openForSubject(sealed)) === undefined, 2_000, 'the key to be dropped');
  });
});
