import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { RawBodyRequest } from '../../infrastructure/http/json-body-parser';
import { hasValidSignature } from '../../shared/signature';
import { RUNTIME_SETTINGS } from '../voice-runtime';
import { HttpRuntimeSettings } from './http-settings';

/** Telephony callbacks carry `X-Signature: sha256=<HMAC of the raw body>` keyed with TELEPHONY_SECRET (docs/api.md). */
@Injectable()
export class TelephonySignatureGuard implements CanActivate {
  constructor(@Inject(RUNTIME_SETTINGS) private readonly settings: HttpRuntimeSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RawBodyRequest & { headers: Record<string, string | undefined> }>();
    if (!hasValidSignature(request.rawBody ?? '', this.settings.secret, request.headers['x-signature'])) {
      throw new HttpException({ message: 'Invalid signature.' }, 401);
    }
    return true;
  }
}
