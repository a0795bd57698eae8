import { AnsweredBy, CallStatus } from './call.events';

export const TERMINAL_STATUSES: readonly CallStatus[] = ['completed', 'ended', 'ended_by_customer', 'ended_by_assistant', 'busy', 'no-answer', 'failed'];
const CONVERSATION_ENDS: readonly CallStatus[] = ['completed', 'ended', 'ended_by_customer', 'ended_by_assistant'];
const STEP: Partial<Record<CallStatus, number>> = { initiated: 0, ringing: 1, 'in-progress': 2 };

export const isTerminal = (status: CallStatus) => TERMINAL_STATUSES.includes(status);

/**
 * docs/api.md: `initiated` → `ringing` → `in-progress` → terminal, forward only (a step may
 * be skipped); `busy` and `no-answer` only before `in-progress`; `failed` from any open status.
 */
export function canMove(from: CallStatus, to: CallStatus): boolean {
  if (isTerminal(from)) return false;
  if (to === 'failed' || CONVERSATION_ENDS.includes(to)) return true;
  if (to === 'busy' || to === 'no-answer') return STEP[from]! < STEP['in-progress']!;
  return STEP[to]! > STEP[from]!;
}

/** A call reached its contact when a conversation ended and no answering machine took it. */
export function isReached(status: CallStatus, answeredBy: AnsweredBy | undefined): boolean {
  return CONVERSATION_ENDS.includes(status) && answeredBy !== 'machine';
}
