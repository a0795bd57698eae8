import { TestApp, TestResponse } from './test-app';

/**
 * Eight clients send `path` with `token` without pause while `act` runs (after 200 ms of them),
 * and for 300 ms after it answered. Answers the act's answer, each refusal's status, and the
 * requests that started after the act answered and were still let through.
 */
export async function racing(t: TestApp, token: string, path: string, act: () => Promise<TestResponse>) {
  let actedAt = Infinity;
  const late: number[] = [];
  const refusals: number[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const started = Date.now();
      const answer = await t.request('GET', path, { token });
      if (answer.status === 200 && started > actedAt) late.push(started);
      if (answer.status !== 200) refusals.push(answer.status);
    }
  };
  const clients = Array.from({ length: 8 }, client);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const acted = await act();
  actedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 300));
  running = false;
  await Promise.all(clients);
  return { acted, late, refusals };
}
