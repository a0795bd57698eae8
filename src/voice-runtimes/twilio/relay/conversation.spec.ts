import { Conversation, modelTools, promptWithVariables } from './conversation';
import { analysisOf, analysisSchema } from './post-call-extraction';
import { renderedTool } from '../../../testing/assistant.fixture';

describe('the relay’s conversation', () => {
  it('fills {{name}} with its variable, keeping a name with none', () => {
    expect(promptWithVariables('Call {{first_name}} about {{ plan }}; {{missing}} stays; {{n}}', { first_name: 'Ann', plan: 'Pro', n: 3 })).toBe(
      'Call Ann about Pro; {{missing}} stays; 3',
    );
  });

  it('offers the assistant’s tools as functions, and end_call only with an end-call tool', () => {
    const tool = renderedTool({ name: 'book_slot', description: 'Books', schema: [{ name: 'day', type: 'string', description: 'The day' }] });
    expect(modelTools({ tools: [tool], end_call_tool: { description: null } }).map((t) => t.function.name)).toEqual(['book_slot']);
    const tools = modelTools({ tools: [tool], end_call_tool: { description: 'Ends the call' } });
    expect(tools[1]).toEqual({
      type: 'function',
      function: { name: 'end_call', description: 'Ends the call', parameters: { type: 'object', properties: {} } },
    });
    expect(tools[0].function.parameters).toEqual({ type: 'object', properties: { day: { type: 'string', description: 'The day' } } });
  });

  it('writes the transcript from the spoken turns only', () => {
    const c = new Conversation('system', 'Hello!');
    c.said('Book me');
    c.answering();
    c.askedFor([{ id: 't', name: 'book_slot', arguments: '{}' }]);
    c.toolAnswered('t', '{"ok":true}');
    c.answering();
    c.answered('Done');
    c.answered(', see you.');
    c.said('Wait');
    c.answering();
    c.answered('Sure, what');
    c.interrupted('Sure');
    expect(c.transcript()).toBe('AI: Hello!\nUser: Book me\nAI: Done, see you.\nUser: Wait\nAI: Sure');
  });
});

describe('the post-call analysis of a relayed call (docs/real-calls.md)', () => {
  const assistant = {
    post_call_schema: [
      { name: 'slot', type: 'string' as const, description: 'The slot' },
      { name: 'paid', type: 'bool' as const, description: 'Paid' },
    ],
    post_call_evaluation: true,
  };

  it('asks for the fields and the verdict in one strict JSON schema', () => {
    expect(analysisSchema(assistant)).toEqual({
      type: 'object',
      properties: {
        slot: { type: 'string', description: 'The slot' },
        paid: { type: 'boolean', description: 'Paid' },
        success: { type: 'boolean', description: expect.any(String) },
        summary: { type: 'string', description: expect.any(String) },
      },
      required: ['slot', 'paid', 'success', 'summary'],
      additionalProperties: false,
    });
  });

  it('drops a value of the wrong type', () => {
    expect(analysisOf({ slot: 'Tue', paid: 'yes', success: 'true', summary: 'Booked.' }, assistant)).toEqual({
      variables: { slot: 'Tue' },
      evaluation: { summary: 'Booked.' },
    });
    expect(analysisOf('nonsense', assistant)).toEqual({});
  });
});
