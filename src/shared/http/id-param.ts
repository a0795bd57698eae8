import { Param, PipeTransform } from '@nestjs/common';
import { DomainError } from '../domain-error';

/** A path id that is not a positive integer names no resource: it is that resource's 404. */
class PositiveIdPipe implements PipeTransform<string, number> {
  constructor(private readonly thing: string) {}
  transform(value: string): number {
    if (!/^[1-9]\d{0,15}$/.test(value)) throw DomainError.notFound(this.thing);
    return Number(value);
  }
}

export const IdParam = (thing: string, name = 'id') => Param(name, new PositiveIdPipe(thing));
