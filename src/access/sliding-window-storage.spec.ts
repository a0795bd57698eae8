import { SlidingWindowStorage } from './sliding-window-storage';

describe('SlidingWindowStorage', () => {
  let now: number;
  let storage: SlidingWindowStorage;
  const hit = (key = 'token', limit = 3) => storage.increment(key, 60_000, limit, 60_000);

  beforeEach(() => {
    now = 1_000_000;
    storage = new SlidingWindowStorage(() => now);
  });
  afterEach(() => storage.onApplicationShutdown());

  it('counts hits up to the limit, then refuses with the seconds until the block ends', async () => {
    for (let i = 1; i <= 3; i++) expect(await hit()).toMatchObject({ totalHits: i, isBlocked: false, timeToBlockExpire: 0 });
    now += 10_000;
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
    now += 30_500;
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
  });

  it('counts afresh once the block has passed', async () => {
    for (let i = 0; i < 4; i++) await hit();
    now += 60_000;
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('slides: a hit leaves the window a ttl after it was counted', async () => {
    await hit();
    now += 30_000;
    await hit();
    await hit();
    now += 30_000;
    // The first hit has left; the two later ones are still inside.
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: false, timeToExpire: 30 });
  });

  it('keeps keys apart', async () => {
    for (let i = 0; i < 4; i++) await hit('a');
    expect((await hit('a')).isBlocked).toBe(true);
    expect(await hit('b')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps counting right over many windows (the expired part is compacted away)', async () => {
    for (let i = 0; i < 10_000; i++) {
      expect((await hit('busy', 100)).isBlocked).toBe(false);
      now += 1_000; // 60 hits in any minute, under the limit of 100
    }
    expect((await hit('busy', 100)).totalHits).toBe(60);
  });

  it('forgets idle keys when swept', async () => {
    const keys = () => (storage as unknown as { logs: Map<string, unknown> }).logs.size;
    await hit('idle');
    now += 30_000;
    await hit('recent');
    now += 30_001;
    storage.sweep();
    expect(keys()).toBe(1);
    expect(await hit('recent')).toMatchObject({ totalHits: 2 });
  });
});
