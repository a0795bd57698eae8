import { Get } from '@nestjs/common';
import { UserApi } from '../infrastructure/auth/user-api.decorator';
import { LANGUAGES, VOICES } from './catalog';

@UserApi()
export class CatalogController {
  @Get('voices')
  voices() {
    return VOICES;
  }

  @Get('languages')
  languages() {
    return LANGUAGES;
  }
}
