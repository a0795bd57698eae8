import { Type } from 'class-transformer';
import { Between, Int, Rules, Optional } from '../validation/rules';

/** `page` and `per_page` of a list, beside the list's own filters (`Filters`); each list sets its own default page size. */
export function PageQuery<F extends object = object>(defaultPerPage: number, maxPerPage = 100, Filters: new () => F = class {} as new () => F) {
  class Query extends (Filters as new () => object) {
    @Optional() @Type(() => Number) @Rules(Int(), Between(1, maxPerPage)) per_page: number = defaultPerPage;
    @Optional() @Type(() => Number) @Rules(Int(), Between(1, 1_000_000)) page: number = 1;
  }
  return Query as unknown as new () => Query & F;
}

/** The absolute URL of the current route, without its query. */
export function listPath(publicUrl: string, routePath: string): string {
  return `${publicUrl.replace(/\/$/, '')}${routePath}`;
}
