const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/infrastructure/event-store/sqlite-event-store');
const { SqliteKeyStore } = require('../dist/infrastructure/sealing/sqlite-key-store');
const { OpeningEventStore } = require('../dist/infrastructure/sealing/opening-event-store');
const { keyFileKeys } = require('../dist/infrastructure/sealing/data-keys');
const { Sealer } = require('../dist/shared/sealing/sealer');
const { SqliteAuditTrail } = require('../dist/infrastructure/event-store/sqlite-audit-trail');
const { loadLeads, loadCalls, phone } = require('./load');

// The bench's loaded data is only what the service holds if it is written as the service writes it.
describe('bench loaders', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seal every number and variable under its person’s key and stamp each event with its organisation and subject', async () => {
    await loadLeads(dataDir, { userId: 7, campaignId: 3, count: 3 });
    await loadCalls(dataDir, { userId: 7, assistantId: 1, campaignId: 3, count: 3 });

    const files = readdirSync(dataDir).filter((name) => name.startsWith('events.db'));
    const bytes = Buffer.concat(files.map((name) => readFileSync(join(dataDir, name))));
    for (const number of [phone(0, 212), phone(2, 718), phone(1)]) expect(bytes.includes(number.slice(1))).toBe(false);
    expect(bytes.includes('Lead 1')).toBe(false);

    const keys = new SqliteKeyStore(join(dataDir, 'keys.db'));
    const sealer = new Sealer(keys, keyFileKeys(dataDir, []).keys);
    await sealer.start();
    const events = new OpeningEventStore(new SqliteEventStore(join(dataDir, 'events.db')), sealer);
    try {
      const [lead] = await events.readStream('lead-1');
      expect(lead.data).toMatchObject({
        phone_number: phone(0, 212),
        variables: { customer_name: 'Lead 0' },
        secondary_contacts: [{ phone_number: phone(0, 718) }],
      });
      expect(lead.metadata).toMatchObject({ organisation_id: 7, subject: sealer.subjectKeyId(7, phone(0, 212)) });
      const [initiated, outcome] = await events.readStream('call-1');
      expect(initiated.data.client_phone_number).toBe(phone(0));
      expect(outcome.metadata.subject).toBe(sealer.subjectKeyId(7, phone(0)));
      // Filed in the log's audit columns as an append files them (docs/teams.md).
      const trail = new SqliteAuditTrail(join(dataDir, 'events.db'));
      const audited = await trail.page({ organisationId: 7, types: ['LeadCreated', 'CallInitiated'] }, 0, 10);
      await trail.close();
      expect(audited.total).toBe(6);
    } finally {
      await events.close();
      await keys.close();
    }
  });
});
