import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../infrastructure/event-store/sqlite-event-store';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { auditTrailContract } from '../testing/contracts/audit-trail.contract';
import { AT, GivenEvent, projectionSpec } from '../testing/projection-spec';
import { AuditProjection } from './audit.projection';

const spec = projectionSpec(
  (store) => new AuditProjection(store),
  (p) => p.entries,
  'position',
);
const SYSTEM = { type: 'system', id: null };
/** An entry names its event; no value of it is copied (docs/teams.md). */
const entry = (position: number, organisation_id: number, event: GivenEvent, actor: object = SYSTEM) => ({
  position,
  organisation_id,
  type: event.type,
  stream: event.stream,
  actor,
  occurred_at: AT,
});

describe('audit projection (docs/teams.md)', () => {
  it('files each event under the organisation it names, with the actor in its metadata; events without one read as system', () => {
    const byUser = { type: 'user', id: 9 };
    const created = {
      type: 'CampaignCreated',
      stream: 'campaign-4',
      revision: 0,
      data: { campaign_id: 4, user_id: 7, settings: {} },
      metadata: { actor: byUser },
    };
    const founded = { type: 'OrganisationFounded', stream: 'organisation-8', revision: 0, data: { organisation_id: 8, owner_user_id: 8, email: 'a@b.c' } };
    return spec.given(created, founded).then([entry(1, 7, created, byUser), entry(2, 8, founded)]);
  });

  it("files a user's later events, an assistant's publication and an import's progress under the organisation of their stream's first event", () => {
    const registered = {
      type: 'UserRegistered',
      stream: 'user-3',
      revision: 0,
      data: { user_id: 3, email: 'm@b.c', tool_limit: 1, webhook_secret: 's', organisation_id: 1 },
    };
    const token = { type: 'AccessTokenIssued', stream: 'user-3', revision: 1, data: { user_id: 3, token_hash: 'secret-hash' } };
    const legacy = { type: 'UserRegistered', stream: 'user-5', revision: 0, data: { user_id: 5, email: 'o@b.c', tool_limit: 1, webhook_secret: 's' } };
    const assistant = { type: 'AssistantCreated', stream: 'assistant-2', revision: 0, data: { assistant_id: 2, user_id: 5, uuid: 'u', settings: {} } };
    const published = {
      type: 'AssistantPublishStarted',
      stream: 'assistant-2',
      revision: 1,
      data: { assistant_id: 2, runtime: 'retell', settings_version: 1, at: AT },
    };
    const stray = { type: 'LeadImportUploaded', stream: 'lead_import-77', revision: 3, data: { import_id: 77, bytes: 1 } };
    return spec
      .given(registered, token, legacy, assistant, published, stray)
      .then([entry(1, 1, registered), entry(2, 1, token), entry(3, 5, legacy), entry(4, 5, assistant), entry(5, 5, published)]);
  });
});

auditTrailContract('projected (for a log without an index of its own)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-projected-'));
  const events = new SqliteEventStore(join(dir, 'events.db'));
  const reads = new SqliteDocumentStore(join(dir, 'read.db'));
  const projection = new AuditProjection(reads);
  let position = 0;
  return {
    events,
    trail: projection,
    // As the projection runner hands it the log: its types, in order, in a batch.
    settled: async () => {
      const recorded = await events.readAll(position, 1_000, projection.eventTypes);
      await reads.exclusive('projections', async () => {
        for (const event of recorded) await projection.apply(event);
      });
      position = await events.headPosition();
    },
    close: async () => {
      await reads.close();
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
