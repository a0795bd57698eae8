import { sign } from '../../shared/signature';
import { DIAL_TIMEOUT_MS, DialAccepted, DialRefused, DialRequest, Dialer } from '../dialer.port';
import { HttpRuntimeSettings } from './http-settings';

/** `DIALER=http`: POSTs the signed dial request to DIALER_URL; a non-2xx answer or a 10 s timeout is a refusal. */
export class HttpDialer extends Dialer {
  readonly provider = 'http' as const;

  constructor(
    private readonly settings: HttpRuntimeSettings,
    private readonly timeoutMs = DIAL_TIMEOUT_MS,
  ) {
    super();
  }

  override get maxOpenDials(): number | null {
    return this.settings.maxOpenDials;
  }

  async dial(request: DialRequest): Promise<DialAccepted> {
    const body = JSON.stringify(request);
    let response: Response;
    try {
      response = await fetch(this.settings.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': sign(body, this.settings.secret) },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      await response.arrayBuffer();
    } catch (error) {
      const name = (error as Error).name;
      throw new DialRefused(
        name === 'TimeoutError'
          ? `the provider did not answer within ${this.timeoutMs / 1000} s`
          : `the provider could not be reached (${(error as Error).message})`,
      );
    }
    if (!response.ok) throw new DialRefused(`the provider answered ${response.status}`);
    // The provider deduplicates on our call id: it needs no id of its own.
    return { providerCallId: null };
  }
}
