import { isDeadProcessHere, ownerId } from './lease-owner';

describe('lease owners', () => {
  const gone = () => false;
  const running = () => true;

  it('takes over from a process of this host that no longer runs', () => {
    expect(isDeadProcessHere(ownerId(4242, 'box', 'n1'), 'box', gone)).toBe(true);
    expect(isDeadProcessHere(ownerId(4242, 'box', 'n1'), 'box', running)).toBe(false);
  });

  it('never from another host, from this very process, or from a name it cannot read', () => {
    expect(isDeadProcessHere(ownerId(4242, 'other', 'n1'), 'box', gone)).toBe(false);
    expect(isDeadProcessHere(ownerId(process.pid, 'box', 'n1'), 'box', gone)).toBe(false);
    expect(isDeadProcessHere('someone', 'box', gone)).toBe(false);
  });

  it('reads the system for real: this process runs, a pid far above any in use does not', () => {
    expect(isDeadProcessHere(ownerId(process.ppid, 'box', 'n'), 'box')).toBe(false);
    expect(isDeadProcessHere(ownerId(2 ** 22 + 7, 'box', 'n'), 'box')).toBe(true);
  });
});
