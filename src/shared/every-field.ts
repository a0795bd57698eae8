/**
 * T with its optional fields made required but still allowed to be undefined. An object literal
 * typed so must name every field of T: a field added to T later, optional or not, fails to
 * compile until the literal copies it, where a plain T would let an optional one be left out.
 * (Mapped over `Required<T>`: a `-?` over T itself would also take `undefined` out of the
 * optional fields' types, refusing the copy of a value that is not there.)
 */
export type EveryField<T> = { [K in keyof Required<T>]: K extends keyof T ? T[K] : never };
