import type { CallResponse } from 'retell-sdk/resources/call';
import { retellCallAnalysis, retellCallEnded, retellEndedStatus } from './retell-outcomes';

/** Every `disconnection_reason` retell-sdk 5.66 types. */
type Reason = NonNullable<CallResponse['disconnection_reason']>;

describe("Retell's disconnection_reason → call status (docs/real-calls.md)", () => {
  // Every reason retell-sdk's CallResponse type lists, and the status it ends a call with.
  const table: Array<[string, string, boolean]> = [
    ['user_hangup', 'ended_by_customer', false],
    ['agent_hangup', 'ended_by_assistant', false],
    ['call_transfer', 'ended_by_assistant', false],
    ['transfer_bridged', 'ended_by_assistant', false],
    ['voicemail_reached', 'ended', false],
    ['ivr_reached', 'ended', false],
    ['inactivity', 'ended', false],
    ['max_duration_reached', 'ended', false],
    ['manual_stopped', 'ended', false],
    ['call_take_over', 'ended', false],
    ['transfer_cancelled', 'ended', false],
    ['dial_busy', 'busy', false],
    ['user_declined', 'busy', false],
    ['dial_no_answer', 'no-answer', false],
    ['concurrency_limit_reached', 'failed', true],
    ['no_concurrency_fallback', 'failed', true],
    ['dial_failed', 'failed', false],
    ['invalid_destination', 'failed', false],
    ['marked_as_spam', 'failed', false],
    ['scam_detected', 'failed', false],
    ['no_valid_payment', 'failed', false],
    ['registered_call_timeout', 'failed', false],
    ['sip_routing_error', 'failed', false],
    ['telephony_provider_permission_denied', 'failed', false],
    ['telephony_provider_unavailable', 'failed', false],
    ['error_asr', 'failed', false],
    ['error_llm_websocket_corrupt_payload', 'failed', false],
    ['error_llm_websocket_lost_connection', 'failed', false],
    ['error_llm_websocket_open', 'failed', false],
    ['error_llm_websocket_runtime', 'failed', false],
    ['error_no_audio_received', 'failed', false],
    ['error_retell', 'failed', false],
    ['error_unknown', 'failed', false],
    ['error_user_not_joined', 'failed', false],
  ];

  it('covers every reason retell-sdk lists, no more (a reason Retell adds fails the build)', () => {
    const every: Record<Reason, true> = {
      user_hangup: true,
      agent_hangup: true,
      call_transfer: true,
      voicemail_reached: true,
      ivr_reached: true,
      inactivity: true,
      max_duration_reached: true,
      concurrency_limit_reached: true,
      no_concurrency_fallback: true,
      no_valid_payment: true,
      scam_detected: true,
      dial_busy: true,
      dial_failed: true,
      dial_no_answer: true,
      invalid_destination: true,
      telephony_provider_permission_denied: true,
      telephony_provider_unavailable: true,
      sip_routing_error: true,
      marked_as_spam: true,
      user_declined: true,
      error_llm_websocket_open: true,
      error_llm_websocket_lost_connection: true,
      error_llm_websocket_runtime: true,
      error_llm_websocket_corrupt_payload: true,
      error_no_audio_received: true,
      error_asr: true,
      error_retell: true,
      error_unknown: true,
      error_user_not_joined: true,
      registered_call_timeout: true,
      transfer_bridged: true,
      transfer_cancelled: true,
      manual_stopped: true,
      call_take_over: true,
    };
    expect(table.map(([reason]) => reason).sort()).toEqual(Object.keys(every).sort());
  });

  it.each(table)('%s → %s (at capacity: %s)', (reason, status, atCapacity) => {
    expect(retellEndedStatus(reason)).toEqual({ status, atCapacity });
  });

  it('takes duration, transcript, recording and cost (cents to dollars) from call_ended, a machine for voicemail', () => {
    const ended = retellCallEnded(
      {
        disconnection_reason: 'user_hangup',
        duration_ms: 61_600,
        transcript: 'Agent: Hi',
        recording_url: 'https://r.retellai.com/a.wav',
        call_cost: { combined_cost: 42 },
      },
      true,
    );
    expect(ended).toEqual({
      status: 'ended_by_customer',
      details: { duration: 62, answered_by: 'human', transcript: 'Agent: Hi', recording_url: 'https://r.retellai.com/a.wav', total_cost: 0.42 },
    });
    expect(retellCallEnded({ disconnection_reason: 'voicemail_reached' }, true).details.answered_by).toBe('machine');
    expect(retellCallEnded({ disconnection_reason: 'dial_failed' }, false)).toEqual({
      status: 'failed',
      details: { duration: 0, answered_by: 'unknown' },
      reason: 'retell: dial_failed',
    });
  });

  it('takes the analysis fields of the right type and the verdict from call_analyzed', () => {
    const fields = [
      { name: 'slot', type: 'string' as const },
      { name: 'budget', type: 'number' as const },
    ];
    const analysis = { custom_analysis_data: { slot: 'Tue', budget: 'lots', other: 1 }, call_successful: true, call_summary: 'Booked.' };
    expect(retellCallAnalysis({ call_analysis: analysis }, fields)).toEqual({ variables: { slot: 'Tue' }, evaluation: { success: true, summary: 'Booked.' } });
    expect(retellCallAnalysis({}, fields)).toEqual({});
  });
});
