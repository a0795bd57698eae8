import { HttpException } from '@nestjs/common';

/**
 * The write was stored but the read models did not show it in time (a shutdown under
 * way, or projections far behind). HTTP answers 503; a reactor gets its event again.
 */
export class ReadModelBehind extends HttpException {
  constructor(position: number) {
    super({ message: 'The change is saved but cannot be read back yet. Read it again in a moment.' }, 503, {
      description: `read models behind position ${position}`,
    });
    this.name = 'ReadModelBehind';
  }
}
