import { Vapi } from '@vapi-ai/server-sdk';
import { vapiEndOfCallReport, vapiEndedStatus, vapiStatusUpdate } from './vapi-outcomes';

/** Every `endedReason` @vapi-ai/server-sdk documents (ServerMessageEndOfCallReportEndedReason): 597 in 2.0.1. */
const DOCUMENTED: readonly string[] = Object.values(Vapi.ServerMessageEndOfCallReportEndedReason);

describe("Vapi's endedReason → call status (docs/real-calls.md)", () => {
  // The documented reasons docs/real-calls.md names a status for: [endedReason, status, no attempt used].
  const named: Array<[string, string, boolean]> = [
    ['customer-ended-call', 'ended_by_customer', false],
    ['customer-ended-call-after-warm-transfer-attempt', 'ended_by_customer', false],
    ['customer-ended-call-before-warm-transfer', 'ended_by_customer', false],
    ['customer-ended-call-during-transfer', 'ended_by_customer', false],
    ['assistant-ended-call', 'ended_by_assistant', false],
    ['assistant-said-end-call-phrase', 'ended_by_assistant', false],
    ['assistant-ended-call-with-hangup-task', 'ended_by_assistant', false],
    ['assistant-ended-call-after-message-spoken', 'ended_by_assistant', false],
    ['assistant-forwarded-call', 'ended_by_assistant', false],
    ['voicemail', 'ended', false],
    ['exceeded-max-duration', 'ended', false],
    ['silence-timed-out', 'ended', false],
    ['manually-canceled', 'ended', false],
    ['customer-busy', 'busy', false],
    ['call.forwarding.operator-busy', 'busy', false],
    ['customer-did-not-answer', 'no-answer', false],
    ['call.in-progress.sip-completed-call', 'completed', false],
    ['call.in-progress.twilio-completed-call', 'completed', false],
    ['call.start.error-subscription-concurrency-limit-reached', 'failed', true],
  ];

  it('names only documented reasons', () => {
    expect(DOCUMENTED).toHaveLength(597);
    expect(named.map(([reason]) => reason).filter((reason) => !DOCUMENTED.includes(reason))).toEqual([]);
  });

  it.each(named)('%s → %s (at capacity: %s), in progress or not', (reason, status, atCapacity) => {
    expect(vapiEndedStatus(reason, true)).toEqual({ status, atCapacity });
    expect(vapiEndedStatus(reason, false)).toEqual({ status, atCapacity });
  });

  it('ends every other documented reason `ended` when the call was in progress, else `failed`, an attempt used', () => {
    const others = DOCUMENTED.filter((reason) => !named.some(([n]) => n === reason));
    expect(others).toHaveLength(578);
    for (const reason of others) {
      expect([reason, vapiEndedStatus(reason, true)]).toEqual([reason, { status: 'ended', atCapacity: false }]);
      expect([reason, vapiEndedStatus(reason, false)]).toEqual([reason, { status: 'failed', atCapacity: false }]);
    }
  });

  it('moves a call on ringing and in-progress status updates only (every status the SDK documents)', () => {
    const documented = ['scheduled', 'queued', 'ringing', 'in-progress', 'forwarding', 'ended', 'not-found', 'deletion-failed'];
    expect(documented.map(vapiStatusUpdate)).toEqual([null, null, 'ringing', 'in-progress', null, null, null, null]);
    expect(vapiStatusUpdate(undefined)).toBeNull();
  });
});

describe("Vapi's end-of-call report", () => {
  const fields = [
    { name: 'appointment', type: 'string' as const },
    { name: 'budget', type: 'number' as const },
    { name: 'interested', type: 'bool' as const },
  ];

  it('takes duration, transcript, recording, cost, the extracted fields of the right type, and the evaluation', () => {
    const report = vapiEndOfCallReport(
      {
        endedReason: 'customer-ended-call',
        startedAt: '2026-06-01T10:00:00.000Z',
        endedAt: '2026-06-01T10:01:14.600Z',
        cost: 0.42,
        artifact: { transcript: 'AI: Hi\nUser: Hello', recordingUrl: 'https://storage.vapi.ai/rec.wav' },
        analysis: { structuredData: { appointment: 'Tue 10:00', budget: '9000', interested: true, other: 1 }, successEvaluation: 'true', summary: 'Booked.' },
      },
      true,
      fields,
    );
    expect(report).toEqual({
      status: 'ended_by_customer',
      details: {
        duration: 75,
        answered_by: 'human',
        transcript: 'AI: Hi\nUser: Hello',
        recording_url: 'https://storage.vapi.ai/rec.wav',
        total_cost: 0.42,
        variables: { appointment: 'Tue 10:00', interested: true },
        evaluation: { success: true, summary: 'Booked.' },
      },
    });
  });

  it("reads Vapi's string verdicts as booleans, any other verdict as none, and the recording from its newer field first", () => {
    const evaluationOf = (successEvaluation: unknown) =>
      vapiEndOfCallReport({ endedReason: 'customer-ended-call', analysis: { successEvaluation } }, true, []).details.evaluation?.success;
    expect([evaluationOf('true'), evaluationOf('False'), evaluationOf('8/10'), evaluationOf('A'), evaluationOf(true)]).toEqual([true, false, null, null, true]);
    const artifact = { recordingUrl: 'https://storage.vapi.ai/old.wav', recording: { mono: { combinedUrl: 'https://storage.vapi.ai/new.wav' } } };
    expect(vapiEndOfCallReport({ endedReason: 'customer-ended-call', artifact }, true, []).details.recording_url).toBe('https://storage.vapi.ai/new.wav');
  });

  it('reads a voicemail as a machine, a call never in progress as nobody, a failure with its reason, and no times as 0 s', () => {
    expect(vapiEndOfCallReport({ endedReason: 'voicemail' }, true, []).details).toEqual({ duration: 0, answered_by: 'machine' });
    expect(vapiEndOfCallReport({ endedReason: 'call.start.error-get-transport' }, false, [])).toEqual({
      status: 'failed',
      details: { duration: 0, answered_by: 'unknown' },
      reason: 'vapi: call.start.error-get-transport',
    });
    expect(vapiEndOfCallReport({ endedReason: 'call.start.error-subscription-concurrency-limit-reached' }, false, [])).toMatchObject({
      status: 'failed',
      atCapacity: true,
    });
  });
});
