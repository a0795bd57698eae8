/** A lease owner's name: its process and host, and a random part that no other start shares. */
export function ownerId(pid: number, host: string, nonce: string): string {
  return `${pid}@${host}#${nonce}`;
}

/**
 * Whether the owner was a process of this host that no longer runs: its leases may be taken
 * at once instead of waiting for them to lapse (a service restarted after a crash resumes its
 * work straight away). Another host's processes cannot be seen from here.
 */
export function isDeadProcessHere(owner: string, host: string, alive: (pid: number) => boolean = processAlive): boolean {
  const match = /^(\d+)@(.*)#[^#]*$/.exec(owner);
  if (!match || match[2] !== host) return false;
  const pid = Number(match[1]);
  return pid !== process.pid && !alive(pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
