import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { Arr, Between, HttpUrl, Int, LenBetween, MaxLen, Obj, OneOf, Pattern, Required, Rules, Str, Optional } from '../shared/validation/rules';
import { HTTP_METHODS, HttpMethod, SCHEMA_TYPES, SchemaType } from './tool.events';

export class ToolHeaderDto {
  @Rules(Required(), Str(), MaxLen(255)) name!: string;
  @Rules(Required(), Str(), MaxLen(2048)) value!: string;
}

export class ToolSchemaItemDto {
  @Rules(Required(), Str(), LenBetween(2, 32), Pattern(/^[A-Za-z][A-Za-z_]*$/)) name!: string;
  @Rules(Required(), OneOf(SCHEMA_TYPES)) type!: SchemaType;
  @Rules(Required(), Str(), LenBetween(3, 255)) description!: string;
}

export class CreateToolDto {
  @Rules(Required(), Str(), MaxLen(64), Pattern(/^[a-z][a-z_]*$/)) name!: string;
  @Rules(Required(), Str(), MaxLen(255)) description!: string;
  @Rules(Required(), HttpUrl()) endpoint!: string;
  @Rules(Required(), OneOf(HTTP_METHODS)) method!: HttpMethod;
  @Optional() @Rules(Int(), Between(1, 30)) timeout?: number;
  @Optional() @Rules(Arr()) @ValidateNested({ each: true }) @Type(() => ToolHeaderDto) headers?: ToolHeaderDto[];
  @Optional() @Rules(Arr()) @ValidateNested({ each: true }) @Type(() => ToolSchemaItemDto) schema?: ToolSchemaItemDto[];
}

/** The same fields, all optional; a given `headers` or `schema` replaces the old one whole. */
export class UpdateToolDto {
  @Optional() @Rules(Str(), MaxLen(64), Pattern(/^[a-z][a-z_]*$/)) name?: string;
  @Optional() @Rules(Str(), MaxLen(255)) description?: string;
  @Optional() @Rules(HttpUrl()) endpoint?: string;
  @Optional() @Rules(OneOf(HTTP_METHODS)) method?: HttpMethod;
  @Optional() @Rules(Int(), Between(1, 30)) timeout?: number;
  @Optional() @Rules(Arr()) @ValidateNested({ each: true }) @Type(() => ToolHeaderDto) headers?: ToolHeaderDto[];
  @Optional() @Rules(Arr()) @ValidateNested({ each: true }) @Type(() => ToolSchemaItemDto) schema?: ToolSchemaItemDto[];
}

/** The body of a tool run: the arguments checked against the tool's schema. */
export class ToolArgumentsDto {
  @Optional() @Rules(Obj()) arguments?: Record<string, unknown>;
}
