import { EventEmitter } from 'node:events';
import { ModelToolCall } from './conversation';
import { ModelFailed, ModelPart, ModelRequest } from './model-client';
import { APOLOGY, RelayPorts, RelaySession } from './relay-session';
import { renderedAssistant } from '../../../testing/assistant.fixture';

const assistant = renderedAssistant({
  system_prompt: 'Call {{first_name}}.',
  initial_message: 'Hello!',
  llm_model: 'gpt-4o',
  llm_temperature: 0.2,
  'end_call_tool.description': 'Ends the call',
  post_call_schema: [],
  post_call_evaluation: false,
});

/** A relay socket the test speaks into as Twilio would, keeping what the session sends. */
class FakeSocket extends EventEmitter {
  readonly sent: any[] = [];
  closed = false;
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
  say(message: object): void {
    this.emit('message', Buffer.from(JSON.stringify(message)));
  }
}

type Answer = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelPart>;

/** Ports recording what the session asks of the service; the model is `answer`. */
function portsWith(answer: Answer) {
  const seen = { requests: [] as ModelRequest[], failed: [] as string[], hungUp: 0, ended: [] as string[], tools: [] as ModelToolCall[][] };
  const ports: RelayPorts = {
    bind: async (callId, callSid) => (callId === 7 && callSid === 'CA1' ? { assistant, variables: { first_name: 'Ann' } } : null),
    answer: (request, signal) => {
      seen.requests.push(request);
      return answer(request, signal);
    },
    runTools: async (_callId, calls) => {
      seen.tools.push([...calls]);
      return calls.map((c) => ({ toolCallId: c.id, text: '{"booked":true}' }));
    },
    hangingUp: async () => void seen.hungUp++,
    failed: async (_callId, reason) => void seen.failed.push(reason),
    ended: async (_callId, _assistant, transcript) => void seen.ended.push(transcript),
  };
  return { ports, seen };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
/** Waits for what the session sends as the model streams: a fixed wait fails when timers run late under load. */
async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check();) {
    if (Date.now() > deadline) throw new Error('the session did not get there within 5 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}
const turnClosed = (socket: FakeSocket) => () => socket.sent.some((f) => f.last === true);
const setup = { type: 'setup', callSid: 'CA1', customParameters: { call_id: '7' } };

async function* words(signal: AbortSignal, ...parts: string[]): AsyncGenerator<ModelPart> {
  for (const text of parts) {
    await new Promise((r) => setTimeout(r, 15));
    if (signal.aborted) return;
    yield { type: 'text', text };
  }
}

describe('RelaySession (docs/real-calls.md)', () => {
  it('asks the model with the prompt filled in, sends each delta as it comes and closes the turn', async () => {
    const socket = new FakeSocket();
    const { ports, seen } = portsWith((_r, signal) => words(signal, 'Hi', ' Ann.'));
    new RelaySession(socket, ports);
    socket.say(setup);
    socket.say({ type: 'prompt', voicePrompt: 'Who is this?', last: true });
    await until(turnClosed(socket));
    expect(socket.sent).toEqual([
      { type: 'text', token: 'Hi', last: false },
      { type: 'text', token: ' Ann.', last: false },
      { type: 'text', token: '', last: true },
    ]);
    expect(seen.requests[0].messages).toEqual([
      { role: 'system', content: 'Call Ann.' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Who is this?' },
    ]);
    socket.close();
    await settle();
    expect(seen.ended).toEqual(['AI: Hello!\nUser: Who is this?\nAI: Hi Ann.']);
  });

  it('cuts the answer in hand to what the caller heard on interrupt, and asks again with it', async () => {
    const socket = new FakeSocket();
    // Which answers the model has streamed to their end (the first is cut short).
    const streamed: boolean[] = [];
    const { ports, seen } = portsWith((_r, signal) => {
      const answer = streamed.push(false) - 1;
      return (async function* () {
        yield* words(signal, 'Our plans', ' start at', ' ten dollars.');
        streamed[answer] = true;
      })();
    });
    new RelaySession(socket, ports);
    socket.say(setup);
    socket.say({ type: 'prompt', voicePrompt: 'Prices?', last: true });
    await until(() => socket.sent.length > 0);
    socket.say({ type: 'interrupt', utteranceUntilInterrupt: 'Our plans', durationUntilInterruptMs: 900 });
    socket.say({ type: 'prompt', voicePrompt: 'Monthly?', last: true });
    // Once the second answer is streamed, the first would have closed its turn too, had it not been cut.
    await until(() => streamed[1] === true);
    await settle();
    expect(seen.requests[1].messages.slice(2)).toEqual([
      { role: 'user', content: 'Prices?' },
      { role: 'assistant', content: 'Our plans' },
      { role: 'user', content: 'Monthly?' },
    ]);
    // Nothing of the cut answer was sent after the interrupt, and its turn was never closed.
    expect(socket.sent.filter((f) => f.last === true)).toHaveLength(1);
    socket.close();
  });

  it('runs the tools the model asks for and asks again with their answers; end_call is recorded before the end is sent', async () => {
    const socket = new FakeSocket();
    let round = 0;
    const { ports, seen } = portsWith(async function* (request) {
      round++;
      const last = request.messages[request.messages.length - 1];
      if (round === 1) yield { type: 'tools', calls: [{ id: 't1', name: 'book_slot', arguments: '{"day":"Tue"}' }] };
      else if (last.role === 'tool') yield { type: 'text', text: 'Booked.' };
      else yield { type: 'tools', calls: [{ id: 't2', name: 'end_call', arguments: '{}' }] };
    });
    new RelaySession(socket, ports);
    socket.say(setup);
    socket.say({ type: 'prompt', voicePrompt: 'Tuesday', last: true });
    await settle();
    expect(seen.tools).toEqual([[{ id: 't1', name: 'book_slot', arguments: '{"day":"Tue"}' }]]);
    expect(seen.requests[1].messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'book_slot', arguments: '{"day":"Tue"}' } }] },
      { role: 'tool', tool_call_id: 't1', content: '{"booked":true}' },
    ]);
    socket.say({ type: 'prompt', voicePrompt: 'Bye', last: true });
    await settle();
    expect(seen.hungUp).toBe(1);
    expect(socket.sent.slice(-1)).toEqual([{ type: 'end' }]);
    socket.close();
  });

  it('apologises and ends the call when the model fails, recording why', async () => {
    const socket = new FakeSocket();
    const { ports, seen } = portsWith(async function* () {
      yield { type: 'text', text: 'Let me' };
      throw new ModelFailed('model sent nothing for 10 s');
    });
    new RelaySession(socket, ports);
    socket.say(setup);
    socket.say({ type: 'prompt', voicePrompt: 'Hello?', last: true });
    await settle();
    expect(seen.failed).toEqual(['model sent nothing for 10 s']);
    expect(socket.sent).toEqual([{ type: 'text', token: 'Let me', last: false }, { type: 'text', token: APOLOGY, last: true }, { type: 'end' }]);
    socket.close();
  });

  it('closes a socket whose setup names no Twilio call of ours, recording nothing; ignores frames it cannot read', async () => {
    const socket = new FakeSocket();
    const { ports, seen } = portsWith((_r, signal) => words(signal, 'x'));
    new RelaySession(socket, ports);
    socket.emit('message', Buffer.from('not json'));
    socket.say({ ...setup, callSid: 'CA2' });
    await settle();
    expect(socket.closed).toBe(true);
    expect(seen.ended).toEqual([]);
    expect(seen.requests).toEqual([]);
  });
});
