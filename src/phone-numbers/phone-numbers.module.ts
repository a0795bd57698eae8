import { Module } from '@nestjs/common';
import { PhoneNumbersController } from './phone-numbers.controller';
import { PhoneNumberOwners } from './phone-number-owners';
import { PhoneNumbersProjection } from './phone-numbers.projection';
import { PhoneNumbersQueries } from './phone-numbers.queries';

@Module({ controllers: [PhoneNumbersController], providers: [PhoneNumbersProjection, PhoneNumbersQueries, PhoneNumberOwners], exports: [PhoneNumbersQueries] })
export class PhoneNumbersModule {}
