import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ConcurrencyError } from '../../infrastructure/event-store/event-store.errors';
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
    try {
      const { events, position } = await this.runner.run(callStream(callId), callDecider, { type: 'InitiateCall', id: callId, spec }, { retries: 0 });
      return { created: events.length > 0, position };
    } catch (error) {
      if (error instanceof ConcurrencyError) return { created: false, position: null };
      throw error;
    }
  }
}
