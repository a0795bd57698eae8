import { Injectable } from '@nestjs/common';
import { PhoneNumberRecord, PhoneNumbersProjection } from './phone-numbers.projection';

/** What other features read of phone numbers. */
@Injectable()
export class PhoneNumbersQueries {
  constructor(private readonly projection: PhoneNumbersProjection) {}

  get(id: number): Promise<PhoneNumberRecord | null> {
    return this.projection.numbers.get(id);
  }

  async owned(organisationId: number, id: number): Promise<PhoneNumberRecord | null> {
    const record = await this.projection.numbers.get(id);
    return record && record.user_id === organisationId ? record : null;
  }

  /** Every record of this number (each user may hold it once), oldest first. */
  withNumber(e164: string): Promise<PhoneNumberRecord[]> {
    return this.projection.numbers.find({ phone_number: e164 }, { sort: [['id', 'asc']] });
  }
}
