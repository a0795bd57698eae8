import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { Arr, Between, Bool, HttpUrl, Int, MaxLen, Num, Obj, OneOf, Pattern, Required, Rules, Str } from './rules';
import { AppValidationPipe, CheckedBodyPipe, ValidationFailed } from './validation.pipe';

class Item {
  @Rules(Required(), Str(), Pattern(/^[a-z]+$/)) name!: string;
}
class Body {
  @Rules(Required(), Str(), MaxLen(5)) assistant_name!: string;
  @IsOptional() @Rules(Num(), Between(0.7, 1.2)) speech_speed?: number;
  @IsOptional() @Rules(Int(), Between(1, 30)) timeout?: number;
  @IsOptional() @Rules(Bool()) active?: boolean;
  @IsOptional() @Rules(OneOf(['GET', 'POST'])) method?: string;
  @IsOptional() @Rules(HttpUrl()) webhook_url?: string;
  @IsOptional() @Rules(Obj()) variables?: object;
  @IsOptional() @Rules(Arr()) @ValidateNested({ each: true }) @Type(() => Item) items?: Item[];
}

const run = (value: unknown, firstErrorAsMessage = false) =>
  new AppValidationPipe({ firstErrorAsMessage }).transform(value, { type: 'body', metatype: Body }).then(
    () => null,
    (e: ValidationFailed) => e.getResponse() as { message: string; errors: Record<string, string[]> },
  );

describe('AppValidationPipe', () => {
  it('accepts a valid body and drops unknown fields', async () => {
    const out = await new AppValidationPipe().transform({ assistant_name: 'ab', extra: 1 }, { type: 'body', metatype: Body });
    expect(out).toBeInstanceOf(Body);
    expect(out).not.toHaveProperty('extra');
  });

  it.each([
    [{}, 'assistant_name', 'The assistant name field is required.'],
    [{ assistant_name: '' }, 'assistant_name', 'The assistant name field is required.'],
    [{ assistant_name: 5 }, 'assistant_name', 'The assistant name field must be a string.'],
    [{ assistant_name: 'abcdef' }, 'assistant_name', 'The assistant name field must not be greater than 5 characters.'],
    [{ assistant_name: 'a', speech_speed: 1.21 }, 'speech_speed', 'The speech speed field must be between 0.7 and 1.2.'],
    [{ assistant_name: 'a', speech_speed: 0.69 }, 'speech_speed', 'The speech speed field must be between 0.7 and 1.2.'],
    [{ assistant_name: 'a', speech_speed: '1' }, 'speech_speed', 'The speech speed field must be a number.'],
    [{ assistant_name: 'a', timeout: 1.5 }, 'timeout', 'The timeout field must be an integer.'],
    [{ assistant_name: 'a', timeout: 31 }, 'timeout', 'The timeout field must be between 1 and 30.'],
    [{ assistant_name: 'a', active: 'yes' }, 'active', 'The active field must be true or false.'],
    [{ assistant_name: 'a', method: 'TRACE' }, 'method', 'The selected method is invalid.'],
    [{ assistant_name: 'a', webhook_url: 'not a url' }, 'webhook_url', 'The webhook url field must be a valid URL.'],
    [{ assistant_name: 'a', webhook_url: 'ftp://x.com' }, 'webhook_url', 'The webhook url field must be a valid URL.'],
    [{ assistant_name: 'a', variables: [1] }, 'variables', 'The variables field must be an array.'],
    [{ assistant_name: 'a', items: {} }, 'items', 'The items field must be an array.'],
    [{ assistant_name: 'a', items: [{ name: 'ok' }, { name: 'Bad' }] }, 'items.1.name', 'The items.1.name field format is invalid.'],
  ])('refuses %j on %s with Laravel wording', async (body, field, message) => {
    const res = await run(body);
    expect(res).toEqual({ message: 'Validation failed', errors: { [field]: [message] } });
  });

  it('puts the first field message on top when asked', async () => {
    const res = await run({ assistant_name: 'abcdefg', timeout: 0 }, true);
    expect(res?.message).toBe('The assistant name field must not be greater than 5 characters.');
    expect(Object.keys(res!.errors)).toEqual(['assistant_name', 'timeout']);
  });

  it('accepts values exactly at the bounds', async () => {
    expect(await run({ assistant_name: 'abcde', speech_speed: 0.7, timeout: 30 })).toBeNull();
    expect(await run({ assistant_name: 'abcde', speech_speed: 1.2, timeout: 1 })).toBeNull();
  });

  it('refuses a body that is not an object', async () => {
    expect((await run([1]))?.errors).toEqual({ body: ['The request body must be a JSON object.'] });
  });

  it('refuses an item of a list of objects that is no object, at its own path, naming the type it must be', async () => {
    expect((await run({ assistant_name: 'ab', items: [1] }))?.errors).toEqual({ 'items.0': ['The items.0 field must be an object.'] });
    for (const item of [[], [[]], ['+12015554802'], null, 'x', true]) {
      expect((await run({ assistant_name: 'ab', items: [{ name: 'ok' }, item] }))?.errors).toEqual({ 'items.1': ['The items.1 field must be an object.'] });
    }
  });

  it('leaves out of a checked body the list holding an item that is no object', async () => {
    const { fields, errors } = await new CheckedBodyPipe(Body).transform({ assistant_name: 'ab', items: [[]] });
    expect(errors).toEqual({ 'items.0': ['The items.0 field must be an object.'] });
    expect(fields.items).toBeUndefined();
  });

  it('checks a body without refusing it: the valid fields, and the errors of those taken out', async () => {
    const pipe = new CheckedBodyPipe(Body);
    const { fields, errors } = await pipe.transform({ speech_speed: 2, timeout: 5, items: [{ name: 'Bad' }], extra: 1 });
    expect(fields).toBeInstanceOf(Body);
    expect(fields).toMatchObject({ timeout: 5 });
    expect(fields.speech_speed).toBeUndefined();
    expect(fields.items).toBeUndefined();
    expect(fields).not.toHaveProperty('extra');
    expect(errors).toEqual({
      assistant_name: ['The assistant name field is required.'],
      speech_speed: ['The speech speed field must be between 0.7 and 1.2.'],
      'items.0.name': ['The items.0.name field format is invalid.'],
    });
    expect((await pipe.transform({ assistant_name: 'ab' })).errors).toEqual({});
  });

  it('still refuses a checked body that is not an object, its message on top when asked', async () => {
    const refused = (pipe: CheckedBodyPipe<Body>) =>
      pipe.transform([1]).then(
        () => null,
        (e: ValidationFailed) => e.getResponse(),
      );
    const errors = { body: ['The request body must be a JSON object.'] };
    expect(await refused(new CheckedBodyPipe(Body))).toEqual({ message: 'Validation failed', errors });
    expect(await refused(new CheckedBodyPipe(Body, { firstErrorAsMessage: true }))).toEqual({ message: 'The request body must be a JSON object.', errors });
  });
});
