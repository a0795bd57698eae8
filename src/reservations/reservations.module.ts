import { Global, Module } from '@nestjs/common';
import { Reservations } from './reservations';

/** Values only one stream may hold at a time (an email, a phone number, a lead's number in its campaign). */
@Global()
@Module({ providers: [Reservations], exports: [Reservations] })
export class ReservationsModule {}
