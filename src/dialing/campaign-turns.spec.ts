import { CampaignTurns } from './campaign-turns';

const campaigns = (...ids: number[]) => ids.map((id) => ({ id }));
const ids = (order: Array<{ id: number }>) => order.map((c) => c.id);

describe('the order passes serve campaigns in', () => {
  it('serves first the campaigns that waited longest for a claim, those never claimed before all, ties as listed', () => {
    const turns = new CampaignTurns();
    turns.next(campaigns(1, 2, 3, 4, 5));
    turns.claimed(2);
    turns.next(campaigns(1, 2, 3, 4, 5));
    turns.claimed(4);
    turns.claimed(1);
    expect(ids(turns.next(campaigns(1, 2, 3, 4, 5)))).toEqual([3, 5, 2, 1, 4]);
  });

  it('turns the order over as campaigns claim: one served first this pass comes after the others the next', () => {
    const turns = new CampaignTurns();
    const served: number[][] = [];
    for (let pass = 0; pass < 4; pass++) {
      const order = turns.next(campaigns(1, 2, 3));
      served.push(ids(order));
      // Each pass, only the first campaign served gets a claim (the others are at their cap).
      turns.claimed(order[0].id);
    }
    expect(served).toEqual([
      [1, 2, 3],
      [2, 3, 1],
      [3, 1, 2],
      [1, 2, 3],
    ]);
  });

  it('forgets a campaign no longer running: started again, it counts as never claimed', () => {
    const turns = new CampaignTurns();
    turns.next(campaigns(1, 2));
    turns.claimed(1);
    turns.next(campaigns(2));
    expect(ids(turns.next(campaigns(1, 2)))).toEqual([1, 2]);
  });
});
