import { Get } from '@nestjs/common';
import { UserApi } from '../infrastructure/auth/user-api.decorator';
import { LANGUAGES, catalogVoices } from './catalog';

@UserApi()
export class CatalogController {
  @Get('voices')
  voices() {
    return catalogVoices();
  }

  @Get('languages')
  languages() {
    return LANGUAGES;
  }
}
