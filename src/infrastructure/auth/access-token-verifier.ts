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
