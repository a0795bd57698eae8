import { takesTemperature } from './model-client';

describe("the relay's model requests", () => {
  it("send the assistant's temperature only to models that take one", () => {
    expect(['gpt-4o', 'gpt-4.1-mini', 'gpt-5-chat-latest', 'llama3.1:8b', 'claude-sonnet-4-6'].every(takesTemperature)).toBe(true);
    expect(['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.4-nano'].some(takesTemperature)).toBe(false);
  });
});
