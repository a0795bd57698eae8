const { PARTS, partsChosen } = require('./parts');

describe('the parts BENCH_ONLY chooses', () => {
  it('chooses every part when unset or empty', () => {
    expect([...partsChosen()]).toEqual(PARTS);
    expect([...partsChosen(' ')]).toEqual(PARTS);
  });

  it('chooses the parts named, separated by commas', () => {
    expect([...partsChosen('http, campaigns,forecast')]).toEqual(['http', 'campaigns', 'forecast']);
  });

  it('refuses a name that is no part, naming it and the parts, so a typo measures nothing and overwrites no results', () => {
    expect(() => partsChosen('http,campaign')).toThrow('BENCH_ONLY names no part "campaign"; the parts: adapters, http,');
  });
});
