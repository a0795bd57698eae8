/**
 * T with its optional fields made required but still allowed to be undefined. An object literal
 * typed so must name every field of T: a field added to T later, optional or not, fails to
 * compile until the literal copies it, where a plain T would let an optional one be left out.
 */
export type EveryField<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? T[K] | undefined : T[K] };
