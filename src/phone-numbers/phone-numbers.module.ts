import { Module } from '@nestjs/common';
import { PhoneNumbersController } from './phone-numbers.controller';
import { PhoneNumbersProjection } from './phone-numbers.projection';

@Module({ controllers: [PhoneNumbersController], providers: [PhoneNumbersProjection], exports: [PhoneNumbersProjection] })
export class PhoneNumbersModule {}
