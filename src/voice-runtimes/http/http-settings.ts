import { EnvReader } from '../../infrastructure/config/env-reader';

/** The secret earlier versions signed with when none was set: anyone can read it, so it signs nothing. */
export const DEFAULT_TELEPHONY_SECRET = 'change-me-telephony-secret';

/** docs/api.md: what `DIALER=http` needs, the user's own telephony provider. */
export interface HttpRuntimeSettings {
  /** DIALER_URL: where dial requests are POSTed. */
  url: string;
  /** TELEPHONY_SECRET: signs requests both ways. */
  secret: string;
  /** The most dial requests the provider takes open at once; null: no limit of its own. */
  maxOpenDials: number | null;
}

export function readHttpRuntimeSettings(read: EnvReader): HttpRuntimeSettings {
  const secret = read.text('TELEPHONY_SECRET');
  // Real calls are signed with it: a secret anyone can read in this repository signs nothing.
  if (!secret || secret === DEFAULT_TELEPHONY_SECRET) read.problems.push('TELEPHONY_SECRET must be set to a secret of your own when DIALER=http');
  return {
    url: read.url('DIALER_URL', ['http:', 'https:'], true, 'when DIALER=http') ?? '',
    secret: secret ?? '',
    maxOpenDials: read.text('DIALER_MAX_OPEN_REQUESTS') ? read.int('DIALER_MAX_OPEN_REQUESTS', 0, 1, 100_000) : null,
  };
}
