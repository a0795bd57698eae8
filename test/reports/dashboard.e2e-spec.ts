import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { TestApp, startTestApp } from '../support/test-app';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts', 'dashboard');
const LEADS = 6;

// CI installs Debian's chromium (.ci/run); elsewhere the suite says why it does not run.
const describeInBrowser = existsSync(CHROMIUM) || process.env.CI ? describe : describe.skip;
if (!existsSync(CHROMIUM)) console.warn(`dashboard.e2e-spec: skipped, ${CHROMIUM} is missing (apt-get install chromium)`);

/** README.md, in a real browser: sign in, start a campaign, watch it dial, open it, stop it. */
describeInBrowser('dashboard', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let userId: number;
  let campaignId: number;
  const problems: string[] = [];
  const outside: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await startTestApp({ SIMULATED_CALL_STEP_SECONDS: '1', SIMULATED_DIALER_ODDS: 'human:3,no-answer:1', DIAL_INTERVAL_MS: '100' });
    ({ token, id: userId } = await t.createUser());
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    campaignId = (
      await t.request('POST', '/api/user/campaigns', {
        token,
        body: {
          name: 'Winter check-ins',
          assistant_id: assistant,
          max_retries: 1,
          retry_delay_seconds: 3600,
          max_concurrent_calls: 1,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        },
      })
    ).body.data.id;
    for (let i = 0; i < LEADS; i++) {
      await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaignId, phone_number: `+1201555${(7100 + i).toString()}` } });
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    // The page must work with no internet: anything not from the service is refused and noted.
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      outside.push(url.href);
      return route.abort();
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks for a token, and again when one is refused', async () => {
    await page.goto(`${t.url}/dashboard`);
    await page.getByLabel('API token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The token was refused' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await page.getByLabel('API token').fill(token);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.locator('[data-campaign] .badge', { hasText: 'draft' }).waitFor();
    // The token lives in this tab's sessionStorage only.
    expect(await page.evaluate('[sessionStorage.length, localStorage.length, document.cookie]')).toEqual([1, 0, '']);
    await shot('1-campaigns');
  });

  it('starts the campaign by keyboard, shows the answer, and the progress moves without a reload', async () => {
    const card = page.locator(`[data-campaign="${campaignId}"]`);
    await card.getByRole('button', { name: 'Start' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#notice', { hasText: 'Campaign started successfully.' }).waitFor();
    await card.locator('.badge', { hasText: 'in-progress' }).waitFor();
    await card.locator('[data-status="completed"]', { hasText: /completed: [1-9]/ }).waitFor({ timeout: 20_000 });
    expect(await card.locator('.progress').getAttribute('aria-label')).toMatch(/^[1-9]\d* of 6 leads done$/);
    await shot('2-dialing');
  });

  it('opens the campaign: calls per hour, its leads and calls with filters, and its history', async () => {
    await page.getByRole('link', { name: 'Winter check-ins' }).click();
    await page.getByRole('heading', { name: 'Winter check-ins', level: 1 }).waitFor();
    await page.locator('[data-table="calls"] tbody tr').first().waitFor();
    await page.getByText(/^\d+ calls over \d+ hours?, at most \d+ in one hour$/).waitFor();
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    // docs/forecast.md: its end and dials per day, by the dialer's rules.
    await page.locator('[data-forecast] dt', { hasText: 'Ends' }).waitFor();
    expect(await page.locator('[data-forecast] dd').nth(2).textContent()).toMatch(/^\d+ of 6$/);
    expect(await page.locator('[data-table="leads"] tbody tr').count()).toBe(LEADS);
    await page.locator('[data-history] li', { hasText: 'CampaignStarted' }).waitFor();
    // docs/teams.md: each entry names its actor: the user who started it, the system for dialing.
    expect(await page.locator('[data-history] li', { hasText: 'CampaignStarted' }).locator('[data-actor]').first().textContent()).toBe(`user ${userId}`);
    expect(await page.locator('[data-history] li', { hasText: 'LeadCallStarted' }).locator('[data-actor]').first().textContent()).toBe('system');
    // The leads filter asks the API for one status only.
    await page.locator('#leads-status').selectOption('completed');
    await page.waitForFunction(() =>
      [...(globalThis as any).document.querySelectorAll('[data-table="leads"] tbody tr td:nth-child(2)')].every((td: any) => td.textContent === 'completed'),
    );
    // The calls filter by number: only that number's calls are listed.
    await page.locator('#calls-phone_number').fill('+12015557100');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      [...(globalThis as any).document.querySelectorAll('[data-table="calls"] tbody tr td:nth-child(2)')].every((td: any) => td.textContent === '+12015557100'),
    );
    expect(await page.locator('[data-table="calls"] tbody tr').count()).toBeGreaterThan(0);
    const completedCall = page.locator('[data-table="calls"] tbody tr', { hasText: 'completed' }).first();
    // docs/real-calls.md: who placed the call, and why one failed.
    await page.locator('[data-table="calls"] thead', { hasText: 'Why it failed' }).waitFor();
    expect(await completedCall.locator('td:nth-child(4)').textContent()).toBe('simulated');
    await completedCall.getByText('transcript').click();
    await completedCall.locator('pre').waitFor();
    await shot('3-campaign');
  });

  it('stops the campaign and shows it stopped', async () => {
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('#notice', { hasText: /Campaign stopped/ }).waitFor();
    await page.locator('.badge', { hasText: 'stopped' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start' }).isEnabled()).toBe(true);
    const answered = await t.request('GET', `/api/user/campaigns/${campaignId}`, { token });
    expect(answered.body.status).toBe('stopped');
    await shot('4-stopped');
  });

  it("shows the campaign's report, downloads an export, and imports a CSV dropped on the page with its refused rows", async () => {
    const report = (await t.request('GET', `/api/user/campaigns/${campaignId}/report`, { token })).body;
    await page.locator('[data-figure="Calls"]', { hasText: new RegExp(`^${report.calls.total}$`) }).waitFor();
    expect(await page.locator('[data-figure="Answer rate"]').textContent()).toBe(`${(report.calls.answer_rate * 100).toFixed(1)} %`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="calls text/csv"]').click()]);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toMatch(/^id,campaign_id,lead_id,/);
    expect(lines).toHaveLength(report.calls.total + 1);
    // Dropped as a file from the desktop would be: one new lead, one already in the campaign, one bad number.
    const csv = 'phone_number,name\n+12015559001,Ann\n+12015557100,Dup\nnot-a-number,Bob\n';
    await page.locator('[data-dropzone]').evaluate((zone, text) => {
      const g = globalThis as any;
      const data = new g.DataTransfer();
      data.items.add(new g.File([text], 'leads.csv', { type: 'text/csv' }));
      zone.dispatchEvent(new g.DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, csv);
    await page.locator('[data-import-progress]', { hasText: /^completed: 3 rows read, 1 accepted, 1 duplicates, 1 refused$/ }).waitFor();
    expect((await page.locator('[data-import-errors] li').allTextContents()).some((text) => text.startsWith('Row 3: '))).toBe(true);
    const leads = (await t.request('GET', `/api/user/leads?campaign_id=${campaignId}&phone_number=%2B12015559001`, { token })).body;
    expect(leads).toHaveLength(1);
    await shot('4-report-and-import');
  });

  it('fits a narrow screen, sends a reader back to sign in when the token stops working, and shows an empty list as such', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForFunction(() => (globalThis as any).document.documentElement.scrollWidth <= 375); // the chart follows the width
    await shot('5-narrow-campaign');
    await page.getByRole('link', { name: '← All campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await shot('5-narrow');
    await page.evaluate("sessionStorage.setItem('voice-campaigns-token', 'revoked')");
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'The token was refused' }).waitFor();
    // A user with nothing yet is told how to begin.
    await page.getByLabel('API token').fill((await t.createUser()).token);
    await page.keyboard.press('Enter');
    await page.getByText('No campaigns yet.', { exact: false }).waitFor();
    // The browser reports each refused token as a failed load; nothing else may fail.
    const unexpected = problems.filter((p) => !p.includes('status of 401'));
    expect({ unexpected, outside }).toEqual({ unexpected: [], outside: [] });
  });
});
