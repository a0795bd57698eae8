import { CanActivate, ExecutionContext, HttpException, Injectable } from '@nestjs/common';
import { hasValidSignature } from '../../shared/signature';
import { AppConfig } from '../config/app-config';
import { RawBodyRequest } from '../http/json-body-parser';

/** Telephony callbacks carry `X-Signature: sha256=<HMAC of the raw body>` keyed with TELEPHONY_SECRET (docs/api.md). */
@Injectable()
export class TelephonySignatureGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RawBodyRequest & { headers: Record<string, string | undefined> }>();
    if (!hasValidSignature(request.rawBody ?? '', this.config.telephonySecret, request.headers['x-signature'])) {
      throw new HttpException({ message: 'Invalid signature.' }, 401);
    }
    return true;
  }
}
