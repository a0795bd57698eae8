import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { canMove, isReached, isTerminal } from './call-status';
import { CallAnalysis, CallDetails, CallEvent, CallProvider, CallSpec, CallStatus, CallToolInvoked, NotDialedReason } from './call.events';

export const INVALID_TRANSITION = 'Invalid call status transition.';

export type CallCommand =
  | { type: 'InitiateCall'; id: number; spec: CallSpec }
  /** The record-call-outcome command: every status report, real or simulated, comes through here. */
  | {
      type: 'RecordCallOutcome';
      id: number;
      status: CallStatus;
      details: CallDetails;
      reason?: string;
      notDialed?: NotDialedReason;
      retryAt?: string;
      analysisFollows?: boolean;
      /** The runtime reporting it: a call another runtime placed is not its to report on. */
      reportedBy?: CallProvider;
    }
  | {
      type: 'RecordToolInvocation';
      id: number;
      invocation: Omit<CallToolInvoked['data'], 'call_id' | 'user_id' | 'campaign_id' | 'lead_id'>;
      reportedBy?: CallProvider;
    }
  /** The dialer accepted the call's dial request (under the runtime's own id, when it has one). */
  | { type: 'ConfirmDialSent'; id: number; providerCallId?: string | null }
  /**
   * Claims sending the call's dial now: refused (a conflict) once a dial was confirmed or the
   * call moved on, and while another send is younger than `resendAfterMs` (it may be on the wire).
   */
  | { type: 'ClaimDialSend'; id: number; resendAfterMs: number }
  /** The runtime's analysis, after the call ended (or the conversation did, before the carrier says so). */
  | { type: 'RecordCallAnalysis'; id: number; analysis: CallAnalysis }
  /** The analysis awaited since the call's end is given up on. */
  | { type: 'GiveUpCallAnalysis'; id: number }
  /** The assistant ends the conversation: recorded before the runtime is told to hang up. */
  | { type: 'RecordAssistantHangUp'; id: number }
  | { type: 'RecordCallRecording'; id: number; recordingUrl: string };

export type CallState =
  | { exists: false }
  | {
      exists: true;
      organisationId: number;
      campaignId: number | null;
      leadId: number | null;
      status: CallStatus;
      answeredBy?: CallDetails['answered_by'];
      spec: CallSpec;
      /** Whether the dialer (or the provider, by reporting a status) confirmed the dial. */
      dialSent: boolean;
      /** The runtime's own id of the call, once known. */
      providerCallId: string | null;
      /** Dial sends claimed so far, and when the latest was (null: none, or one of a store before the time was kept). */
      sends: number;
      lastSendAt: string | null;
      /** When the first of them was: where a lookup at the runtime starts (docs/real-calls.md). */
      firstSendAt: string | null;
      /** The call ended and its runtime's analysis is still to come. */
      analysisAwaited?: boolean;
      /** An analysis came, before or after the end: none follows the end any more. */
      analyzed?: boolean;
      hungUpByAssistant?: boolean;
      recordingUrl?: string;
    };

export const callDecider: Decider<CallCommand, CallState, CallEvent> = {
  initialState: { exists: false },

  decide(command, state, now) {
    if (command.type === 'InitiateCall') {
      if (state.exists) return [];
      return [{ type: 'CallInitiated', data: { call_id: command.id, ...command.spec } }];
    }
    if (!state.exists) throw DomainError.notFound('Call');
    // A runtime knows only the calls it placed (calls from before providers were recorded: the generic runtime's).
    if ('reportedBy' in command && command.reportedBy && command.reportedBy !== (state.spec.provider ?? 'http')) throw DomainError.notFound('Call');
    const ids = { call_id: command.id, user_id: state.organisationId, campaign_id: state.campaignId, lead_id: state.leadId };
    if (command.type === 'RecordCallAnalysis') {
      const { variables, evaluation, transcript } = command.analysis;
      // An awaited analysis ends the wait even when it says nothing.
      if (!variables && !evaluation && transcript === undefined && !state.analysisAwaited) return [];
      return [{ type: 'CallAnalyzed', data: { ...ids, ...command.analysis, ...(state.analysisAwaited ? { awaited: true } : {}) } }];
    }
    if (command.type === 'GiveUpCallAnalysis') return state.analysisAwaited ? [{ type: 'CallAnalysisTimedOut', data: ids }] : [];
    if (command.type === 'RecordAssistantHangUp')
      return state.hungUpByAssistant || isTerminal(state.status) ? [] : [{ type: 'CallHungUpByAssistant', data: ids }];
    if (command.type === 'RecordCallRecording') {
      return state.recordingUrl === command.recordingUrl ? [] : [{ type: 'CallRecordingSaved', data: { ...ids, recording_url: command.recordingUrl } }];
    }
    if (command.type === 'RecordToolInvocation') return [{ type: 'CallToolInvoked', data: { ...ids, ...command.invocation } }];
    if (command.type === 'ConfirmDialSent') {
      if (state.dialSent && (!command.providerCallId || state.providerCallId)) return [];
      return [{ type: 'CallDialSent', data: { ...ids, ...(command.providerCallId ? { provider_call_id: command.providerCallId } : {}) } }];
    }
    if (command.type === 'ClaimDialSend') {
      if (state.dialSent || state.status !== 'initiated') throw new DomainError('conflict', 'The dial was sent.');
      if (state.lastSendAt !== null && now.getTime() - Date.parse(state.lastSendAt) < command.resendAfterMs) {
        throw new DomainError('conflict', 'The dial is being sent.');
      }
      return [{ type: 'CallDialStarted', data: { ...ids, sends: state.sends + 1, at: now.toISOString() } }];
    }
    // The carrier sees the line dropped; the conversation says who ended it.
    const status = command.status === 'ended_by_customer' && state.hungUpByAssistant ? 'ended_by_assistant' : command.status;
    // The same status again changes nothing, but for an answering machine's verdict on a call in progress (Twilio's comes on its own).
    const given = command.details.answered_by;
    const answeredAnew =
      !isTerminal(status) && given !== undefined && given !== state.answeredBy && (given === 'machine' || !state.answeredBy || state.answeredBy === 'unknown');
    if (status === state.status && !answeredAnew) return [];
    if (status !== state.status && !canMove(state.status, status)) throw new DomainError('conflict', INVALID_TRANSITION);
    return [
      {
        type: 'CallOutcomeRecorded',
        data: {
          ...ids,
          from: state.status,
          status,
          reached: isReached(status, command.details.answered_by ?? state.answeredBy),
          details: command.details,
          ...(command.reason ? { reason: command.reason } : {}),
          ...(command.notDialed ? { not_dialed: command.notDialed } : {}),
          ...(command.retryAt ? { retry_at: command.retryAt } : {}),
          ...(command.analysisFollows && isTerminal(status) && !state.analyzed ? { analysis_follows: true } : {}),
        },
      },
    ];
  },

  evolve(state, event) {
    if (event.type === 'CallInitiated') {
      const { call_id: _id, ...spec } = event.data;
      return {
        exists: true,
        organisationId: spec.user_id,
        campaignId: spec.campaign_id,
        leadId: spec.lead_id,
        status: 'initiated',
        spec,
        dialSent: false,
        providerCallId: spec.provider_call_id ?? null,
        sends: 0,
        lastSendAt: null,
        firstSendAt: null,
      };
    }
    if (!state.exists) return state;
    switch (event.type) {
      case 'CallOutcomeRecorded':
        return {
          ...state,
          status: event.data.status,
          answeredBy: event.data.details.answered_by ?? state.answeredBy,
          dialSent: true,
          analysisAwaited: event.data.analysis_follows === true,
        };
      case 'CallDialSent':
        return { ...state, dialSent: true, providerCallId: event.data.provider_call_id ?? state.providerCallId };
      case 'CallDialResent':
        return { ...state, sends: event.data.resends + 1, lastSendAt: null };
      case 'CallDialStarted':
        return { ...state, sends: event.data.sends, lastSendAt: event.data.at, firstSendAt: state.firstSendAt ?? event.data.at };
      case 'CallToolInvoked':
        return state;
      case 'CallAnalyzed':
        return { ...state, analysisAwaited: false, analyzed: true };
      case 'CallAnalysisTimedOut':
        return { ...state, analysisAwaited: false };
      case 'CallHungUpByAssistant':
        return { ...state, hungUpByAssistant: true };
      case 'CallRecordingSaved':
        return { ...state, recordingUrl: event.data.recording_url };
    }
  },
};
