import { Module } from '@nestjs/common';
import { TelephonySignatureGuard } from '../infrastructure/auth/telephony-signature.guard';
import { CallsModule } from './calls.module';
import { TelephonyController } from './telephony.controller';

/** The generic HTTP runtime's callbacks (docs/api.md): the app imports this with `DIALER=http` only. */
@Module({
  imports: [CallsModule],
  controllers: [TelephonyController],
  providers: [TelephonySignatureGuard],
})
export class TelephonyModule {}
