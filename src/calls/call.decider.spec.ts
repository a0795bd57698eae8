import { fold } from '../shared/event-sourcing/decider';
import { canMove, isReached, TERMINAL_STATUSES } from './call-status';
import { CallCommand, callDecider, INVALID_TRANSITION } from './call.decider';
import { callSpec } from '../testing/call.fixture';
import { deciderSpec } from '../testing/decider-spec';
import { DomainError } from '../shared/domain-error';
import { CALL_STATUSES, CallEvent, CallProvider, CallSpec, CallStatus } from './call.events';

const spec: CallSpec = callSpec({ user_id: 2, assistant_id: 3, campaign_id: 4, campaign_name: 'Spring', lead_id: 5 });
const initiated: CallEvent = { type: 'CallInitiated', data: { call_id: 1, ...spec } };
const moved = (from: CallStatus, status: CallStatus): CallEvent => ({
  type: 'CallOutcomeRecorded',
  data: { call_id: 1, user_id: 2, campaign_id: 4, lead_id: 5, from, status, reached: isReached(status, undefined), details: {} },
});
const at = (status: CallStatus): CallEvent[] => (status === 'initiated' ? [initiated] : [initiated, moved('initiated', status)]);
const record = (status: CallStatus): CallCommand => ({ type: 'RecordCallOutcome', id: 1, status, details: {} });
const decide = (events: CallEvent[], command: CallCommand) => () => callDecider.decide(command, fold(callDecider, events), new Date());

/** Every (from, to) pair and whether docs/api.md allows it. */
const ALLOWED: Record<CallStatus, CallStatus[]> = {
  initiated: ['ringing', 'in-progress', 'busy', 'no-answer', 'failed', 'completed', 'ended', 'ended_by_customer', 'ended_by_assistant'],
  ringing: ['in-progress', 'busy', 'no-answer', 'failed', 'completed', 'ended', 'ended_by_customer', 'ended_by_assistant'],
  'in-progress': ['failed', 'completed', 'ended', 'ended_by_customer', 'ended_by_assistant'],
  busy: [],
  'no-answer': [],
  failed: [],
  completed: [],
  ended: [],
  ended_by_customer: [],
  ended_by_assistant: [],
};

describe('call state machine', () => {
  const pairs = CALL_STATUSES.flatMap((from) => CALL_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const));

  it.each(pairs)('%s → %s follows docs/api.md', (from, to) => {
    expect(canMove(from, to)).toBe(ALLOWED[from].includes(to));
  });

  it('initiates a call once; a second initiation changes nothing', () => {
    expect(decide([], { type: 'InitiateCall', id: 1, spec })()).toEqual([initiated]);
    expect(decide([initiated], { type: 'InitiateCall', id: 1, spec })()).toEqual([]);
  });

  it.each(pairs.filter(([from, to]) => ALLOWED[from].includes(to) && from !== 'initiated'))('records %s → %s', (from, to) => {
    const events = [initiated, moved('initiated', from)];
    const next = decide(events, record(to))();
    expect(next).toEqual([moved(from, to)]);
    expect(fold(callDecider, [...events, ...next])).toMatchObject({ status: to });
  });

  it.each(CALL_STATUSES)('treats a repeated %s as a no-op', (status) => {
    expect(decide(at(status), record(status))()).toEqual([]);
  });

  it.each(pairs.filter(([from, to]) => !ALLOWED[from].includes(to)))('refuses %s → %s', (from, to) => {
    expect(decide(at(from), record(to))).toThrow(INVALID_TRANSITION);
  });

  it('carries the reported details and the campaign and lead of the call', () => {
    const events = decide([initiated], { type: 'RecordCallOutcome', id: 1, status: 'completed', details: { answered_by: 'human', duration: 42 } })();
    expect(events[0].data).toMatchObject({ campaign_id: 4, lead_id: 5, reached: true, details: { answered_by: 'human', duration: 42 } });
  });

  it('records why the service failed a call it never dialed, and only then', () => {
    const command: CallCommand = { ...record('failed'), reason: 'not dialed: listed', notDialed: 'do-not-call' } as CallCommand;
    expect(decide([initiated], command)()[0].data).toMatchObject({ status: 'failed', reached: false, reason: 'not dialed: listed', not_dialed: 'do-not-call' });
    expect(decide([initiated], record('failed'))()[0].data).not.toHaveProperty('not_dialed');
  });

  it('decides reached with an answering machine reported by an earlier event', () => {
    const machine: CallEvent = {
      ...moved('initiated', 'in-progress'),
      data: { ...moved('initiated', 'in-progress').data, details: { answered_by: 'machine' } },
    } as CallEvent;
    expect(decide([initiated, machine], record('completed'))()[0].data).toMatchObject({ status: 'completed', reached: false });
  });

  it("takes a runtime's report only on a call that runtime placed (docs/real-calls.md)", () => {
    const placedBy = (provider: CallProvider): CallEvent[] => [{ type: 'CallInitiated', data: { call_id: 1, ...spec, provider } }];
    const from = (reportedBy: CallProvider): CallCommand => ({ type: 'RecordCallOutcome', id: 1, status: 'completed', details: {}, reportedBy });
    expect(decide(placedBy('vapi'), from('http'))).toThrow('Call not found');
    expect(decide(placedBy('simulated'), from('http'))).toThrow('Call not found');
    expect(decide(placedBy('http'), from('http'))()).toHaveLength(1);
    // Calls of before providers were recorded: the generic runtime's.
    expect(decide([initiated], from('http'))()).toHaveLength(1);
    const tool = { tool_id: 1, tool_name: 't', arguments: {}, status_code: 200, duration_ms: 1, error: null };
    expect(decide(placedBy('vapi'), { type: 'RecordToolInvocation', id: 1, invocation: tool, reportedBy: 'http' })).toThrow('Call not found');
    // The service's own reports (sweeps, refusals) name no runtime.
    expect(decide(placedBy('vapi'), record('failed'))()).toHaveLength(1);
  });

  it("records an answering machine's verdict on a call already in progress, once; a later human report does not undo it", () => {
    const inProgress: CallEvent[] = [
      initiated,
      { ...moved('initiated', 'in-progress'), data: { ...moved('initiated', 'in-progress').data, details: { answered_by: 'human' } } } as CallEvent,
    ];
    const machine: CallCommand = { type: 'RecordCallOutcome', id: 1, status: 'in-progress', details: { answered_by: 'machine' } };
    const events = decide(inProgress, machine)();
    expect(events).toMatchObject([{ type: 'CallOutcomeRecorded', data: { from: 'in-progress', status: 'in-progress', details: { answered_by: 'machine' } } }]);
    expect(decide([...inProgress, ...events], machine)()).toEqual([]);
    expect(decide([...inProgress, ...events], { ...machine, details: { answered_by: 'human' } })()).toEqual([]);
  });

  it('answers a call that does not exist as not found', () => {
    expect(decide([], record('ringing'))).toThrow('Call not found');
  });

  it('counts a call as reached only when a conversation ended and no machine answered', () => {
    const reached = TERMINAL_STATUSES.filter((s) => isReached(s, 'human'));
    expect(reached).toEqual(['completed', 'ended', 'ended_by_customer', 'ended_by_assistant']);
    expect(isReached('completed', undefined)).toBe(true);
    expect(isReached('completed', 'unknown')).toBe(true);
    expect(isReached('completed', 'machine')).toBe(false);
    expect(isReached('in-progress', 'human')).toBe(false);
  });

  it('records a tool invocation on the call without touching its status', () => {
    const invocation = { tool_id: 9, tool_name: 'lookup', arguments: { q: 'x' }, status_code: 200, duration_ms: 12, error: null };
    const events = decide(at('in-progress'), { type: 'RecordToolInvocation', id: 1, invocation })();
    expect(events).toEqual([{ type: 'CallToolInvoked', data: { call_id: 1, user_id: 2, campaign_id: 4, lead_id: 5, ...invocation } }]);
    expect(fold(callDecider, [...at('in-progress'), ...events])).toMatchObject({ status: 'in-progress' });
    expect(decide([], { type: 'RecordToolInvocation', id: 1, invocation })).toThrow('Call not found');
  });
});

describe('call decider: dials never confirmed', () => {
  const { given } = deciderSpec(callDecider);
  const ids = { call_id: 1, user_id: 2, campaign_id: 4, lead_id: 5 };
  const sent: CallEvent = { type: 'CallDialSent', data: ids };
  const started = (sends: number, at: string): CallEvent => ({ type: 'CallDialStarted', data: { ...ids, sends, at } });
  const isConflict = (error: unknown) => error instanceof DomainError && error.kind === 'conflict';
  const claim = { type: 'ClaimDialSend' as const, id: 1, resendAfterMs: 30_000 };
  const T = '2025-03-01T10:00:00.000Z';

  it('confirms a dial once', () => {
    given([initiated]).when({ type: 'ConfirmDialSent', id: 1 }).then([sent]);
    given([initiated, sent]).when({ type: 'ConfirmDialSent', id: 1 }).then([]);
  });

  it("keeps the runtime's id once: given with the confirmation, or learnt after a confirmation without it (a message came first)", () => {
    const withId: CallEvent = { type: 'CallDialSent', data: { ...ids, provider_call_id: 'vapi-1' } };
    given([initiated]).when({ type: 'ConfirmDialSent', id: 1, providerCallId: 'vapi-1' }).then([withId]);
    given([initiated, sent]).when({ type: 'ConfirmDialSent', id: 1, providerCallId: 'vapi-1' }).then([withId]);
    given([initiated, withId]).when({ type: 'ConfirmDialSent', id: 1, providerCallId: 'vapi-1' }).then([]);
    given([initiated, withId]).when({ type: 'ConfirmDialSent', id: 1, providerCallId: 'vapi-2' }).then([]);
  });

  it('claims each send, counting them, with the instant the deadline and the next resend count from', () => {
    given([initiated])
      .when(claim, new Date(T))
      .then([started(1, T)]);
    given([initiated, started(1, T)])
      .when(claim, new Date('2025-03-01T10:00:30.000Z'))
      .then([started(2, '2025-03-01T10:00:30.000Z')]);
  });

  it('refuses a second sender while the latest send may still be on the wire', () => {
    given([initiated, started(1, T)])
      .when(claim, new Date('2025-03-01T10:00:29.999Z'))
      .thenThrows(isConflict);
  });

  it('reads a resend claimed by a store before the send time was kept as long past', () => {
    const legacy: CallEvent = { type: 'CallDialResent', data: { ...ids, resends: 1 } };
    given([initiated, legacy])
      .when(claim, new Date(T))
      .then([started(3, T)]);
  });

  it('refuses a send once the dial was confirmed or the provider reported on the call', () => {
    given([initiated, sent]).when(claim).thenThrows(isConflict);
    given([initiated, moved('initiated', 'ringing')])
      .when(claim)
      .thenThrows(isConflict);
    given([initiated, moved('initiated', 'failed')])
      .when(claim)
      .thenThrows(isConflict);
  });
});

describe('call decider: an analysis that follows the end (docs/real-calls.md)', () => {
  const { given } = deciderSpec(callDecider);
  const ids = { call_id: 1, user_id: 2, campaign_id: 4, lead_id: 5 };
  const ended = (follows: boolean): CallEvent => ({
    type: 'CallOutcomeRecorded',
    data: { ...ids, from: 'in-progress', status: 'ended_by_customer', reached: true, details: {}, ...(follows ? { analysis_follows: true } : {}) },
  });
  const analysis = { type: 'RecordCallAnalysis' as const, id: 1, analysis: { variables: { slot: 'Tue' } } };
  const giveUp = { type: 'GiveUpCallAnalysis' as const, id: 1 };

  it('marks an end the analysis follows, and only a terminal one', () => {
    given([initiated, moved('initiated', 'in-progress')])
      .when({ type: 'RecordCallOutcome', id: 1, status: 'ended_by_customer', details: {}, analysisFollows: true })
      .then([expect.objectContaining({ data: expect.objectContaining({ analysis_follows: true }) }) as unknown as CallEvent]);
    const ringing = given([initiated]).when({ type: 'RecordCallOutcome', id: 1, status: 'ringing', details: {}, analysisFollows: true }).decided();
    expect(ringing[0].data).not.toHaveProperty('analysis_follows');
  });

  it('says an analysis that was awaited ends the wait, even an empty one; gives up only on one awaited', () => {
    given([initiated, ended(true)])
      .when(analysis)
      .then([{ type: 'CallAnalyzed', data: { ...ids, variables: { slot: 'Tue' }, awaited: true } }]);
    given([initiated, ended(true)])
      .when({ ...analysis, analysis: {} })
      .then([{ type: 'CallAnalyzed', data: { ...ids, awaited: true } }]);
    given([initiated, ended(false)])
      .when(analysis)
      .then([{ type: 'CallAnalyzed', data: { ...ids, variables: { slot: 'Tue' } } }]);
    given([initiated, ended(false)])
      .when({ ...analysis, analysis: {} })
      .then([]);
    given([initiated, ended(true)])
      .when(giveUp)
      .then([{ type: 'CallAnalysisTimedOut', data: ids }]);
    given([initiated, ended(true), { type: 'CallAnalysisTimedOut', data: ids }])
      .when(giveUp)
      .then([]);
    given([initiated, ended(true), { type: 'CallAnalysisTimedOut', data: ids }])
      .when(analysis)
      .then([{ type: 'CallAnalyzed', data: { ...ids, variables: { slot: 'Tue' } } }]);
    given([initiated, ended(false)])
      .when(giveUp)
      .then([]);
  });
});

describe('call decider: the service’s own conversation (docs/real-calls.md)', () => {
  const { given } = deciderSpec(callDecider);
  const ids = { call_id: 1, user_id: 2, campaign_id: 4, lead_id: 5 };
  const talking = [initiated, moved('initiated', 'in-progress')];
  const hungUp: CallEvent = { type: 'CallHungUpByAssistant', data: ids };
  const carrierEnd = { type: 'RecordCallOutcome' as const, id: 1, status: 'ended_by_customer' as const, details: { duration: 30 }, analysisFollows: true };

  it('reads the carrier’s end of a call the assistant hung up as the assistant’s, keeping its details', () => {
    given(talking).when({ type: 'RecordAssistantHangUp', id: 1 }).then([hungUp]);
    given([...talking, hungUp])
      .when({ type: 'RecordAssistantHangUp', id: 1 })
      .then([]);
    given([initiated, moved('initiated', 'failed')])
      .when({ type: 'RecordAssistantHangUp', id: 1 })
      .then([]);
    const [ended] = given([...talking, hungUp])
      .when(carrierEnd)
      .decided();
    expect(ended.data).toMatchObject({ status: 'ended_by_assistant', details: { duration: 30 }, reached: true, analysis_follows: true });
    const [customer] = given(talking).when(carrierEnd).decided();
    expect(customer.data).toMatchObject({ status: 'ended_by_customer' });
  });

  it('records a transcript as an analysis, and an end after the analysis awaits none', () => {
    const transcript = 'AI: Hello!\nUser: Hi.';
    given(talking)
      .when({ type: 'RecordCallAnalysis', id: 1, analysis: { transcript } })
      .then([{ type: 'CallAnalyzed', data: { ...ids, transcript } }]);
    const [ended] = given([...talking, { type: 'CallAnalyzed', data: { ...ids, transcript } }])
      .when(carrierEnd)
      .decided();
    expect(ended.data).not.toHaveProperty('analysis_follows');
  });

  it('records the recording once, after the end too', () => {
    const saved: CallEvent = { type: 'CallRecordingSaved', data: { ...ids, recording_url: 'https://r/1' } };
    given([initiated, moved('initiated', 'ended')])
      .when({ type: 'RecordCallRecording', id: 1, recordingUrl: 'https://r/1' })
      .then([saved]);
    given([initiated, moved('initiated', 'ended'), saved])
      .when({ type: 'RecordCallRecording', id: 1, recordingUrl: 'https://r/1' })
      .then([]);
  });
});
