import { ForecastTurns, SMALL_FORECAST_LEADS } from './forecast-turns';

const LARGE = SMALL_FORECAST_LEADS + 1;

/** A computation that runs until the test lets it finish, recording when it starts. */
function held(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    compute: () => {
      log.push(`${name} started`);
      return done;
    },
    finish: () => finish(name),
    fail: (error: Error) => fail(error),
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('forecasts computed one large at a time, the same one shared', () => {
  it('starts a second large forecast only once the first has finished', async () => {
    const turns = new ForecastTurns<string>();
    const log: string[] = [];
    const [first, second] = [held(log, 'A'), held(log, 'B')];
    const answers = [turns.take('1:now', LARGE, first.compute), turns.take('2:now', LARGE, second.compute)];
    await settled();
    expect(log).toEqual(['A started']);
    first.finish();
    await settled();
    expect(log).toEqual(['A started', 'B started']);
    second.finish();
    expect(await Promise.all(answers)).toEqual(['A', 'B']);
  });

  it('answers a forecast asked again while it is computed or waiting with the same computation', async () => {
    const turns = new ForecastTurns<string>();
    const log: string[] = [];
    const [first, second, again] = [held(log, 'A'), held(log, 'B'), held(log, 'B again')];
    const answers = [turns.take('1:now', LARGE, first.compute), turns.take('2:now', LARGE, second.compute), turns.take('2:now', LARGE, again.compute)];
    first.finish();
    await settled();
    second.finish();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'B']);
    expect(log).toEqual(['A started', 'B started']);
  });

  it('computes a forecast again once the last was answered: none is kept after', async () => {
    const turns = new ForecastTurns<string>();
    const log: string[] = [];
    const [first, later] = [held(log, 'A'), held(log, 'A later')];
    const answer = turns.take('1:now', LARGE, first.compute);
    first.finish();
    expect(await answer).toBe('A');
    const again = turns.take('1:now', LARGE, later.compute);
    later.finish();
    expect(await again).toBe('A later');
    expect(log).toEqual(['A started', 'A later started']);
  });

  it('gives a failure to every request sharing it, and lets the next forecast start', async () => {
    const turns = new ForecastTurns<string>();
    const log: string[] = [];
    const [first, next] = [held(log, 'A'), held(log, 'B')];
    const shared = [turns.take('1:now', LARGE, first.compute), turns.take('1:now', LARGE, first.compute)];
    const following = turns.take('2:now', LARGE, next.compute);
    first.fail(new Error('The campaign cannot be dialed'));
    for (const answer of shared) await expect(answer).rejects.toThrow('The campaign cannot be dialed');
    next.finish();
    expect(await following).toBe('B');
    expect(log).toEqual(['A started', 'B started']);
  });

  it('computes small forecasts beside a large one, four at a time', async () => {
    const turns = new ForecastTurns<string>();
    const log: string[] = [];
    const large = held(log, 'large');
    const small = ['s1', 's2', 's3', 's4', 's5'].map((name) => held(log, name));
    const answers = [turns.take('1:now', LARGE, large.compute), ...small.map((s, i) => turns.take(`${i + 2}:now`, SMALL_FORECAST_LEADS, s.compute))];
    await settled();
    expect(log).toEqual(['large started', 's1 started', 's2 started', 's3 started', 's4 started']);
    small[0].finish();
    await settled();
    expect(log).toContain('s5 started');
    for (const s of small.slice(1)) s.finish();
    large.finish();
    expect(await Promise.all(answers)).toEqual(['large', 's1', 's2', 's3', 's4', 's5']);
  });
});
