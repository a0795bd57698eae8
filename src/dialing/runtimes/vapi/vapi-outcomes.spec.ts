import { vapiEndOfCallReport, vapiEndedStatus, vapiStatusUpdate } from './vapi-outcomes';

describe("Vapi's endedReason → call status (contract §18.1)", () => {
  // [endedReason, was in progress, status, no attempt used]
  const table: Array<[string, boolean, string, boolean]> = [
    ['customer-ended-call', true, 'ended_by_customer', false],
    ['customer-ended-call-before-warm-transfer', true, 'ended_by_customer', false],
    ['assistant-ended-call', true, 'ended_by_assistant', false],
    ['assistant-said-end-call-phrase', true, 'ended_by_assistant', false],
    ['assistant-ended-call-with-hangup-task', true, 'ended_by_assistant', false],
    ['assistant-ended-call-after-message-spoken', true, 'ended_by_assistant', false],
    ['assistant-forwarded-call', true, 'ended_by_assistant', false],
    ['voicemail', true, 'ended', false],
    ['exceeded-max-duration', true, 'ended', false],
    ['silence-timed-out', true, 'ended', false],
    ['manually-canceled', false, 'ended', false],
    ['customer-busy', false, 'busy', false],
    ['call.forwarding.operator-busy', true, 'busy', false],
    ['customer-did-not-answer', false, 'no-answer', false],
    ['vonage-completed-call', true, 'completed', false],
    ['twilio-completed-call', false, 'completed', false],
    ['call.start.error-subscription-concurrency-limit-reached', false, 'failed', true],
    ['call.in-progress.error-vapifault-openai-llm-failed', true, 'ended', false],
    ['pipeline-error-openai-llm-failed', false, 'failed', false],
    ['twilio-failed-to-connect-call', false, 'failed', false],
  ];

  it.each(table)('%s (in progress: %s) → %s, at capacity: %s', (reason, inProgress, status, atCapacity) => {
    expect(vapiEndedStatus(reason, inProgress)).toEqual({ status, atCapacity });
  });

  it('moves a call on ringing and in-progress status updates only', () => {
    expect(['ringing', 'in-progress', 'queued', 'forwarding', 'ended', undefined].map(vapiStatusUpdate)).toEqual([
      'ringing',
      'in-progress',
      null,
      null,
      null,
      null,
    ]);
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
        evaluation: { success: 'true', summary: 'Booked.' },
      },
    });
  });

  it('reads a voicemail as a machine, a call never in progress as nobody, a failure with its reason, and no times as 0 s', () => {
    expect(vapiEndOfCallReport({ endedReason: 'voicemail' }, true, []).details).toEqual({ duration: 0, answered_by: 'machine' });
    expect(vapiEndOfCallReport({ endedReason: 'twilio-failed-to-connect-call' }, false, [])).toEqual({
      status: 'failed',
      details: { duration: 0, answered_by: 'unknown' },
      reason: 'vapi: twilio-failed-to-connect-call',
    });
    expect(vapiEndOfCallReport({ endedReason: 'call.start.error-subscription-concurrency-limit-reached' }, false, [])).toMatchObject({
      status: 'failed',
      atCapacity: true,
    });
  });
});
