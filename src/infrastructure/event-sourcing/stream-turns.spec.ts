import { StreamTurns } from './stream-turns';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StreamTurns', () => {
  it('runs work on one stream one after the other, in the order given, and work on others at once', async () => {
    const turns = new StreamTurns();
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = turns.take('lead-1', async () => {
      log.push('first starts');
      await held;
      log.push('first ends');
      return 1;
    });
    const second = turns.take('lead-1', async () => {
      log.push('second starts');
      return 2;
    });
    const other = turns.take('lead-2', async () => {
      log.push('other starts');
      return 3;
    });
    await tick();
    expect(log).toEqual(['first starts', 'other starts']);
    release();
    expect(await Promise.all([first, second, other])).toEqual([1, 2, 3]);
    expect(log).toEqual(['first starts', 'other starts', 'first ends', 'second starts']);
  });

  it('a failed turn fails its own caller only, and the next runs', async () => {
    const turns = new StreamTurns();
    const failed = turns.take('call-1', () => Promise.reject(new Error('refused')));
    const next = turns.take('call-1', async () => 'ran');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('ran');
  });

  it('keeps nothing for a stream once its turns are over', async () => {
    const turns = new StreamTurns();
    await Promise.all([turns.take('a', async () => 1), turns.take('a', async () => 2), turns.take('b', async () => 3)]);
    await tick();
    expect(turns.busy).toBe(0);
  });
});
