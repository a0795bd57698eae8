import { hash } from 'node:crypto';

export interface AuthenticatedUser {
  id: number;
  email: string;
  toolLimit: number;
  webhookSecret: string;
}

/** Port the bearer guard asks; the users feature answers it from its read model. */
export abstract class AccessTokenVerifier {
  abstract userForTokenHash(tokenHash: string): Promise<AuthenticatedUser | null>;
}

/** What a bearer token is known by: only its hash is stored. One-shot, with no Hash object made per request. */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');
