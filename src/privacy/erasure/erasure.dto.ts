import { Required, Rules, Str } from '../../shared/validation/rules';

export class RequestErasureDto {
  @Rules(Required(), Str()) phone_number!: string;
}
