/** Keeps only the keys whose value was given (DTO instances carry every declared field, unset ones as undefined). */
export function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
