import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { TestApp } from './test-app';

export const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A new assistant and a campaign of it that may dial at any hour of any day; its id. */
export async function allDayCampaign(
  t: TestApp,
  token: string,
  settings: Record<string, unknown> = {},
  assistantSettings: Record<string, unknown> = {},
): Promise<number> {
  const assistant = (await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, ...assistantSettings } })).body.data.id;
  const body = { name: 'All day', assistant_id: assistant, calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY, ...settings };
  return (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
}

/** A tool calling a CRM with a bearer credential in its headers. */
export const crmTool = (credential: string) => ({
  name: 'crm',
  description: 'CRM',
  endpoint: 'https://crm.example.com/hook',
  method: 'POST',
  headers: [{ name: 'Authorization', value: `Bearer ${credential}` }],
});
