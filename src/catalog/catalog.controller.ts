import { Permit } from '../access/permissions';
import { Get } from '@nestjs/common';
import { UserApi } from '../access/user-api.decorator';
import { LANGUAGES, catalogVoices } from './catalog';

@UserApi()
export class CatalogController {
  @Permit('read')
  @Get('voices')
  voices() {
    return catalogVoices();
  }

  @Permit('read')
  @Get('languages')
  languages() {
    return LANGUAGES;
  }
}
