const { mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// At full size the run's store is a few gigabytes: one left behind per run fills a disk.
describe('bench many campaigns', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-many-spec-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('measures the campaigns dialing and leaves no store behind', async () => {
    const { manyCampaigns } = require('./many-campaigns');
    const result = await manyCampaigns({ users: 1, campaignsPerUser: 2, perCampaign: 10, seconds: 1, log: () => {}, under: scratch });
    expect(result).toMatchObject({ name: expect.stringMatching(/^2 campaigns of 1 users, 20 leads/), attempts: expect.any(Number) });
    // The service's main thread did the dialing: some of the window's time, and at most all of it (one core).
    expect(result.main_thread_busy).toBeGreaterThan(0);
    expect(result.main_thread_busy).toBeLessThanOrEqual(1.05);
    expect(readdirSync(scratch).filter((name) => name.startsWith('bench-campaigns-'))).toEqual([]);
  }, 120_000);
});
