import { EnvReader } from '../infrastructure/config/env-reader';

/** The imports' own settings from the environment (docs/configuration.md). */
export class ImportSettings {
  constructor(
    /** docs/imports.md: the largest import body taken. */
    readonly maxBytes = 512 * 1024 * 1024,
  ) {}

  static read(read: EnvReader): ImportSettings {
    return new ImportSettings(read.int('IMPORT_MAX_BYTES', new ImportSettings().maxBytes, 1, Number.MAX_SAFE_INTEGER));
  }
}
