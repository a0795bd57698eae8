import { SECRET, keptSecretHeaders, withSecretsHidden } from './secrets';

describe('secrets in answers (docs/teams.md)', () => {
  it('shows secrets at any depth as [secret], leaving everything else', () => {
    const data = {
      user_id: 1,
      webhook_secret: 'whsec_1',
      token_hash: 'abc',
      tool: { name: 'crm', headers: [{ name: 'Authorization', value: 'Bearer t' }], schema: [{ name: 'headers', type: 'string' }] },
      changes: { headers: [{ name: 'X-Key', value: 'k' }] },
      variables: { note: 'plain' },
    };
    expect(withSecretsHidden(data)).toEqual({
      user_id: 1,
      webhook_secret: SECRET,
      token_hash: SECRET,
      tool: { name: 'crm', headers: [{ name: 'Authorization', value: SECRET }], schema: [{ name: 'headers', type: 'string' }] },
      changes: { headers: [{ name: 'X-Key', value: SECRET }] },
      variables: { note: 'plain' },
    });
    expect(JSON.stringify(withSecretsHidden(data))).not.toMatch(/whsec_1|Bearer t|"k"/);
  });

  it('copies only what holds a secret: the value given is left as it was, one without secrets comes back as it is', () => {
    const data = { tool: { name: 'crm', headers: [{ name: 'Authorization', value: 'Bearer t' }] }, variables: { note: 'plain' } };
    const hidden = withSecretsHidden(data) as typeof data;
    expect(data.tool.headers[0].value).toBe('Bearer t');
    expect(hidden.variables).toBe(data.variables);
    const plain = { user_id: 1, contacts: [{ phone_number: '+12015550100' }], variables: { note: 'plain' } };
    expect(withSecretsHidden(plain)).toBe(plain);
  });

  it('keeps a header written back as [secret] at its current value; a new value replaces it', () => {
    const current = [{ name: 'Authorization', value: 'Bearer old' }];
    expect(keptSecretHeaders([{ name: 'authorization', value: SECRET }], current)).toEqual([{ name: 'authorization', value: 'Bearer old' }]);
    expect(keptSecretHeaders([{ name: 'Authorization', value: 'Bearer new' }], current)).toEqual([{ name: 'Authorization', value: 'Bearer new' }]);
  });
});
