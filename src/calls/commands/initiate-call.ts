import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { callDecider } from '../call.decider';
import { CallSpec, callStream } from '../call.events';

export class InitiateCall {
  constructor(
    readonly callId: number,
    readonly spec: CallSpec,
  ) {}
}

/**
 * Opens the call's stream. Only the first initiation of an id appends, so whoever gets
 * `created: true` is the one that places the call.
 */
@CommandHandler(InitiateCall)
export class InitiateCallHandler implements ICommandHandler<InitiateCall, { created: boolean; position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId, spec }: InitiateCall) {
    const result = await this.runner.tryRun(callStream(callId), callDecider, { type: 'InitiateCall', id: callId, spec }, { newStream: true });
    return { created: !!result?.events.length, position: result?.position ?? null };
  }
}
