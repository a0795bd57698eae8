import { Type } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { Between, Int, Rules } from '../validation/rules';

/** `page` and `per_page` of a list; each list sets its own default page size. */
export function PageQuery(defaultPerPage: number, maxPerPage = 100) {
  class Query {
    @IsOptional() @Type(() => Number) @Rules(Int(), Between(1, maxPerPage)) per_page: number = defaultPerPage;
    @IsOptional() @Type(() => Number) @Rules(Int(), Between(1, 1_000_000)) page: number = 1;
  }
  return Query;
}

/** The absolute URL of the current route, without its query. */
export function listPath(publicUrl: string, routePath: string): string {
  return `${publicUrl.replace(/\/$/, '')}${routePath}`;
}
