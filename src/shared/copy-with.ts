/**
 * A shallow copy of `value` with `changes` over it: what `{ ...value, ...changes }` makes.
 * Node 20's V8 makes an object spread followed by more properties through a slow path:
 * measured in a loop, 1.4 µs for a lead's document against 0.14 µs with `Object.assign`, and
 * 0.35 against 0.05 for an object of four properties. The lead projection made two such copies
 * a lead created. For objects of known keys only: where a spread defines a key `__proto__`,
 * `Object.assign` sets the copy's prototype (user-supplied keys, such as a lead's variables,
 * keep the spread).
 */
export function copyWith<T extends object>(value: T, changes: Partial<T>): T {
  return Object.assign({}, value, changes);
}
