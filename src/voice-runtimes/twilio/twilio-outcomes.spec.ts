import { twilioAnsweredBy, twilioStatusReport } from './twilio-outcomes';
import { relayTwiml, relayUrl } from './twilio-twiml';

describe('Twilio status callbacks (docs/real-calls.md)', () => {
  it.each([
    [{ CallStatus: 'queued' }, null, null],
    [{ CallStatus: 'initiated' }, null, null],
    [{ CallStatus: 'ringing' }, null, { status: 'ringing', details: {} }],
    [{ CallStatus: 'in-progress' }, null, { status: 'in-progress', details: { answered_by: 'human' } }],
    [{ CallStatus: 'completed', CallDuration: '42' }, 'human', { status: 'ended_by_customer', details: { duration: 42, answered_by: 'human' } }],
    [
      { CallStatus: 'completed', CallDuration: '9', AnsweredBy: 'machine_end_beep' },
      'human',
      { status: 'ended', details: { duration: 9, answered_by: 'machine' } },
    ],
    [{ CallStatus: 'completed', CallDuration: '9' }, 'machine', { status: 'ended', details: { duration: 9, answered_by: 'machine' } }],
    [
      { CallStatus: 'completed', CallDuration: 'x', RecordingUrl: 'https://r/1' },
      null,
      { status: 'ended_by_customer', details: { duration: 0, answered_by: 'human', recording_url: 'https://r/1' } },
    ],
    [{ CallStatus: 'busy' }, null, { status: 'busy', details: {} }],
    [{ CallStatus: 'no-answer' }, null, { status: 'no-answer', details: {} }],
    [
      { CallStatus: 'failed', ErrorCode: '13224', ErrorMessage: 'Invalid number' },
      null,
      { status: 'failed', details: {}, reason: 'twilio: failed (error 13224: Invalid number)' },
    ],
    [{ CallStatus: 'canceled' }, null, { status: 'failed', details: {}, reason: 'twilio: canceled' }],
  ] as const)('%j (answered by %s) → %j', (params, known, expected) => {
    expect(twilioStatusReport(params, known)).toEqual(expected);
  });

  it('reads AnsweredBy: machines and fax are machines, unknown says nothing', () => {
    // Every AnsweredBy value Twilio's AMD documents.
    const values = ['human', 'machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other', 'fax', 'unknown', undefined];
    expect(values.map(twilioAnsweredBy)).toEqual(['human', 'machine', 'machine', 'machine', 'machine', 'machine', undefined, undefined]);
  });
});

describe('the TwiML of a relayed call', () => {
  it('connects the call to the relay at PUBLIC_URL as ws(s), escaping what the assistant wrote, its call id a parameter', () => {
    expect(relayUrl('https://calls.example.com/')).toBe('wss://calls.example.com/api/telephony/twilio/relay');
    expect(relayTwiml('http://127.0.0.1:3000', { initial_message: 'Hi "Ann" & <co>', language: 'Spanish', voice_id: 999, wait_for_customer: false }, 12)).toBe(
      '<Response><Connect><ConversationRelay url="ws://127.0.0.1:3000/api/telephony/twilio/relay" welcomeGreeting="Hi &quot;Ann&quot; &amp; &lt;co&gt;" language="es-ES">' +
        '<Parameter name="call_id" value="12"/></ConversationRelay></Connect></Response>',
    );
  });

  it('greets with the call variables in the {{name}}s, as Vapi and Retell do, and not at all when the customer speaks first', () => {
    const assistant = { initial_message: 'Hi {{first_name}}, about {{plan}}', language: 'English', voice_id: 999, wait_for_customer: false };
    expect(relayTwiml('http://x', assistant, 1, { first_name: 'Ann' })).toContain('welcomeGreeting="Hi Ann, about {{plan}}"');
    expect(relayTwiml('http://x', { ...assistant, wait_for_customer: true }, 1)).not.toContain('welcomeGreeting');
  });
});
