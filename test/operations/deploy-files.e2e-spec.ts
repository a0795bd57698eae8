import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The files `docker compose up --build` uses, held to what the tree has (no Docker engine runs here). */
describe('deploy files', () => {
  it('copies into the image only paths the repository has', () => {
    const copies = readFileSync(join(root, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => /^COPY\s/.test(line) && !line.includes('--from='))
      .flatMap((line) => line.trim().split(/\s+/).slice(1, -1));
    expect(copies.length).toBeGreaterThan(3);
    expect(copies.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('has nginx pass WebSocket upgrades on, the relay without the 60 s read timeout', () => {
    const conf = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8');
    expect(conf).toMatch(/map \$http_upgrade \$connection_upgrade/);
    const relay = conf.slice(conf.indexOf('location /api/telephony/twilio/relay'));
    expect(relay).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(relay).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    expect(relay).toMatch(/proxy_read_timeout 2h;/);
  });
});
