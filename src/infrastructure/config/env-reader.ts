/** Reads variables from the environment, collecting every problem (each naming its variable) to report them at once. */
export class EnvReader {
  readonly problems: string[] = [];

  constructor(readonly env: NodeJS.ProcessEnv) {}

  text(name: string): string | undefined {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    if (!['true', 'false', '1', '0'].includes(raw)) {
      this.problems.push(`${name} must be true or false (got "${raw}")`);
      return fallback;
    }
    return raw === 'true' || raw === '1';
  }

  /** A URL of one of the protocols; missing is a problem only when `requiredWhen` says why. */
  url(name: string, protocols: string[], requiredWhen: boolean, why: string): string | undefined {
    const raw = this.text(name);
    if (raw === undefined) {
      if (requiredWhen) this.problems.push(`${name} is required ${why}`);
      return undefined;
    }
    if (!isUrlOf(raw, protocols)) this.problems.push(`${name} must be a ${protocols.join(' or ')} URL (got "${raw}")`);
    return raw;
  }

  /** An http(s) base URL, trailing slashes cut. */
  baseUrl(name: string, fallback: string): string {
    const raw = this.text(name) ?? fallback;
    if (!isUrlOf(raw, ['http:', 'https:'])) this.problems.push(`${name} must be an http or https URL (got "${raw}")`);
    return raw.replace(/\/+$/, '');
  }

  /** A value that must be given; `why` completes "NAME is required …". */
  required(name: string, why: string): string {
    const value = this.text(name);
    if (value === undefined) this.problems.push(`${name} is required ${why}`);
    return value ?? '';
  }
}

function isUrlOf(raw: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}
