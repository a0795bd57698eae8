import { CHECKPOINT_EVERY_MS, TrailingCheckpoint } from './trailing-checkpoint';

describe('TrailingCheckpoint', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function given(start: number) {
    const writes: number[] = [];
    const checkpoint = new TrailingCheckpoint(
      start,
      async (p) => void writes.push(p),
      (e) => {
        throw e;
      },
    );
    return { checkpoint, writes };
  }

  it('given many events handled within the interval, then it writes once, the last position', async () => {
    const { checkpoint, writes } = given(10);
    for (let p = 11; p <= 60; p++) checkpoint.reached(p);
    expect(writes).toEqual([]);
    await jest.advanceTimersByTimeAsync(CHECKPOINT_EVERY_MS);
    expect(writes).toEqual([60]);
    checkpoint.reached(61);
    await jest.advanceTimersByTimeAsync(CHECKPOINT_EVERY_MS);
    expect(writes).toEqual([60, 61]);
  });

  it('when asked to save (at stop), then it writes what it reached at once, and nothing when nothing moved', async () => {
    const { checkpoint, writes } = given(5);
    await checkpoint.save();
    expect(writes).toEqual([]);
    checkpoint.reached(7);
    await checkpoint.save();
    expect(writes).toEqual([7]);
    await jest.advanceTimersByTimeAsync(CHECKPOINT_EVERY_MS * 2);
    expect(writes).toEqual([7]);
  });
});
