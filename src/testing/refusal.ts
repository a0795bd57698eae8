/** What a decision refused with: its message and field errors. Fails when it did not refuse. */
export function refusalOf(decide: () => unknown): { message: string; errors?: Record<string, string[]> } {
  try {
    decide();
  } catch (e) {
    return { message: (e as Error).message, errors: (e as { errors?: Record<string, string[]> }).errors };
  }
  throw new Error('expected a refusal');
}
