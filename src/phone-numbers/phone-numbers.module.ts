import { Module } from '@nestjs/common';
import { PhoneNumbersController } from './phone-numbers.controller';
import { PhoneNumberOwners } from './phone-number-owners';
import { PhoneNumbersProjection } from './phone-numbers.projection';

@Module({ controllers: [PhoneNumbersController], providers: [PhoneNumbersProjection, PhoneNumberOwners], exports: [PhoneNumbersProjection] })
export class PhoneNumbersModule {}
