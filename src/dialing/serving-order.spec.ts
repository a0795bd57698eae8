import { servingOrder } from './serving-order';

const campaigns = (...ids: number[]) => ids.map((id) => ({ id }));

describe('the order a pass serves campaigns in', () => {
  it('serves first the campaigns that waited longest for a claim, those never claimed before all', () => {
    const order = servingOrder(
      campaigns(1, 2, 3, 4),
      new Map([
        [1, 7],
        [2, 3],
        [4, 5],
      ]),
    );
    expect(order.map((c) => c.id)).toEqual([3, 2, 4, 1]);
  });

  it('keeps the listed order among campaigns that waited as long', () => {
    expect(
      servingOrder(
        campaigns(5, 2, 9),
        new Map([
          [5, 1],
          [2, 1],
          [9, 1],
        ]),
      ).map((c) => c.id),
    ).toEqual([5, 2, 9]);
  });

  it('turns the order over as campaigns claim: one served first this pass comes after the others the next', () => {
    const lastClaimed = new Map<number, number>();
    const served: number[][] = [];
    for (let pass = 1; pass <= 3; pass++) {
      const order = servingOrder(campaigns(1, 2, 3), lastClaimed);
      served.push(order.map((c) => c.id));
      // Each pass, only the first campaign served gets a claim (the others are at their cap).
      lastClaimed.set(order[0].id, pass);
    }
    expect(served).toEqual([
      [1, 2, 3],
      [2, 3, 1],
      [3, 1, 2],
    ]);
  });
});
