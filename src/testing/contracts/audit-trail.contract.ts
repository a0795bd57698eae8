import { AuditTrail } from '../../shared/ports/audit-trail.port';
import { EventStore, NewEvent } from '../../shared/ports/event-store.port';

/** A log and the trail that answers for it: `settled` once the trail shows what was appended. */
export interface TrailUnderTest {
  events: EventStore;
  trail: AuditTrail;
  settled(): Promise<void>;
  close(): Promise<void>;
}

const TYPES = [
  'CampaignCreated',
  'CampaignStarted',
  'LeadCreated',
  'UserRegistered',
  'AccessTokenIssued',
  'AssistantCreated',
  'AssistantPublishStarted',
  'LeadImportUploaded',
  'OrganisationFounded',
];
const ALICE = { type: 'user', id: 5 };
const KEY = { type: 'api_key', id: 8 };

const event = (type: string, metadata: Record<string, unknown>, data: object = {}): NewEvent => ({ type, data, metadata });

/** What every audit trail does alike (docs/teams.md). */
export function auditTrailContract(name: string, open: () => Promise<TrailUnderTest>) {
  describe(`${name} audit trail contract`, () => {
    let t: TrailUnderTest;
    let positions: number[];
    const page = (filter: object = {}, skip = 0, limit = 50) => t.trail.page({ organisationId: 1, types: TYPES, ...filter }, skip, limit);

    beforeEach(async () => {
      t = await open();
      positions = [];
      const append = async (stream: string, e: NewEvent) => positions.push((await t.events.append(stream, [e], 'any')).position);
      await append('campaign-1', event('CampaignCreated', { organisation_id: 1, actor: ALICE, occurred_at: '2026-03-01T10:00:00.000Z' }));
      await append('campaign-1', event('CampaignStarted', { organisation_id: 1, actor: KEY, occurred_at: '2026-03-02T10:00:00.000Z' }));
      await append('lead-1', event('LeadCreated', { organisation_id: 1, occurred_at: '2026-03-03T10:00:00.000Z' }));
      await append('campaign-2', event('CampaignCreated', { organisation_id: 2, actor: { type: 'user', id: 6 }, occurred_at: '2026-03-03T11:00:00.000Z' }));
      await append('lease-x', event('LeaseTaken', { organisation_id: 1, occurred_at: '2026-03-04T10:00:00.000Z' }));
      await t.settled();
    });
    afterEach(() => t.close());

    it("lists the organisation's events of the trail's types, newest first, with their actors (system when none)", async () => {
      const [created, started, lead] = positions;
      expect(await page()).toEqual({
        total: 3,
        entries: [
          {
            position: lead,
            organisation_id: 1,
            type: 'LeadCreated',
            stream: 'lead-1',
            actor: { type: 'system', id: null },
            occurred_at: '2026-03-03T10:00:00.000Z',
          },
          { position: started, organisation_id: 1, type: 'CampaignStarted', stream: 'campaign-1', actor: KEY, occurred_at: '2026-03-02T10:00:00.000Z' },
          { position: created, organisation_id: 1, type: 'CampaignCreated', stream: 'campaign-1', actor: ALICE, occurred_at: '2026-03-01T10:00:00.000Z' },
        ],
      });
      expect((await t.trail.page({ organisationId: 2, types: TYPES }, 0, 50)).entries.map((e) => e.stream)).toEqual(['campaign-2']);
      expect(await t.trail.page({ organisationId: 3, types: TYPES }, 0, 50)).toEqual({ entries: [], total: 0 });
    });

    it('files an event without a stamp by the organisation its data names, else by its stream’s first event’s (user, assistant, import streams)', async () => {
      const unstamped = async (stream: string, events: Array<[string, object]>, expected: 'no_stream' | number = 'no_stream') =>
        (
          await t.events.append(
            stream,
            events.map(([type, data]) => ({ type, data })),
            expected,
          )
        ).position;
      // A user stream's `user_id` past its first event is the person, not the organisation.
      const userTokens = await unstamped('user-30', [
        ['UserRegistered', { user_id: 30, organisation_id: 31 }],
        ['AccessTokenIssued', { user_id: 30 }],
      ]);
      const published = await unstamped('assistant-32', [
        ['AssistantCreated', { assistant_id: 32, user_id: 33 }],
        ['AssistantPublishStarted', { assistant_id: 32 }],
      ]);
      await t.events.append('lead_import-34', [event('LeadImportUploaded', { organisation_id: 35 }, { import_id: 34 })], 'no_stream');
      const progress = await unstamped('lead_import-34', [['LeadImportUploaded', { import_id: 34, bytes: 1 }]], 0);
      await unstamped('lead_import-36', [['LeadImportUploaded', { import_id: 36 }]]);
      const founded = await unstamped('organisation-37', [['OrganisationFounded', { organisation_id: 37, owner_user_id: 38 }]]);
      await t.settled();
      const filed = async (organisationId: number) =>
        (await t.trail.page({ organisationId, types: TYPES }, 0, 50)).entries.map((e) => [e.position, e.type, e.actor.type]);
      expect(await filed(31)).toEqual([
        [userTokens, 'AccessTokenIssued', 'system'],
        [userTokens - 1, 'UserRegistered', 'system'],
      ]);
      expect(await filed(30)).toEqual([]);
      expect(await filed(33)).toEqual([
        [published, 'AssistantPublishStarted', 'system'],
        [published - 1, 'AssistantCreated', 'system'],
      ]);
      expect((await filed(35)).map(([position]) => position)).toEqual([progress, progress - 1]);
      expect(await filed(37)).toEqual([[founded, 'OrganisationFounded', 'system']]);
    });

    it('filters by type, actor and instants (both ends included), and pages with the total of the filter', async () => {
      const types = async (filter: object, skip?: number, limit?: number) => {
        const { entries, total } = await page(filter, skip, limit);
        return { types: entries.map((e) => e.type), total };
      };
      expect(await types({ type: 'CampaignStarted' })).toEqual({ types: ['CampaignStarted'], total: 1 });
      expect(await types({ actorType: 'user' })).toEqual({ types: ['CampaignCreated'], total: 1 });
      expect(await types({ actorType: 'user', actorId: 6 })).toEqual({ types: [], total: 0 });
      expect(await types({ actorType: 'system' })).toEqual({ types: ['LeadCreated'], total: 1 });
      expect(await types({ actorId: 8 })).toEqual({ types: ['CampaignStarted'], total: 1 });
      expect(await types({ from: '2026-03-02T10:00:00.000Z', to: '2026-03-03T10:00:00.000Z' })).toEqual({
        types: ['LeadCreated', 'CampaignStarted'],
        total: 2,
      });
      expect(await types({}, 1, 1)).toEqual({ types: ['CampaignStarted'], total: 3 });
      expect(await types({}, 3, 1)).toEqual({ types: [], total: 3 });
    });
  });
}
