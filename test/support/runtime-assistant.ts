import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { TestApp } from './test-app';

/**
 * The assistant the voice runtime suites dial with: on `number` (added to the user), one tool
 * (`book_slot`, answered by `toolsUrl`), a post-call field and verdict; `more` settings over them.
 */
export async function runtimeAssistant(t: TestApp, token: string, number: string, toolsUrl: string, more: object = {}): Promise<number> {
  const phoneNumberId = (await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: number } })).body.data.id;
  const tool = await t.request('POST', '/api/user/tools', {
    token,
    body: {
      name: 'book_slot',
      description: 'Books a slot',
      endpoint: `${toolsUrl}/book`,
      method: 'POST',
      schema: [{ name: 'day', type: 'string', description: 'The day' }],
    },
  });
  const assistant = await t.request('POST', '/api/user/assistant', {
    token,
    body: {
      ...requiredAssistantSettings,
      phone_number_id: phoneNumberId,
      tool_ids: [tool.body.data.id],
      max_call_duration: 300,
      post_call_schema: [{ name: 'slot', type: 'string', description: 'The slot booked' }],
      post_call_evaluation: true,
      ...more,
    },
  });
  return assistant.body.data.id;
}
