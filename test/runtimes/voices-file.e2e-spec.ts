import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { startTestApp, TestApp } from '../support/test-app';

/** docs/real-calls.md: VOICES_FILE replaces the built-in catalog: what is served, and what assistants may choose. */
describe('VOICES_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'voices-file-'));
  const voices = [
    {
      id: 41,
      name: 'Iris',
      provider: 'elevenlabs',
      language: 'English',
      runtime_voices: { vapi: { provider: '11labs', voiceId: 'EXAVITQu4vr4xnSDxMaL' }, retell: '11labs-Iris' },
    },
    { id: 42, name: 'Noor', provider: 'azure', language: 'Dutch' },
  ];
  let t: TestApp;

  beforeAll(async () => {
    const file = join(dir, 'voices.json');
    writeFileSync(file, JSON.stringify(voices));
    t = await startTestApp({ VOICES_FILE: file });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves its voices and takes only their ids', async () => {
    const { token } = await t.createUser();
    expect((await t.request('GET', '/api/user/voices', { token })).body).toEqual(voices);
    expect((await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, voice_id: 42 } })).status).toBe(201);
    const refused = await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, voice_id: 1 } });
    expect([refused.status, refused.body.errors]).toEqual([422, { voice_id: ['The selected voice id is invalid.'] }]);
  });
});
