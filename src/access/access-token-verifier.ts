import { hash } from 'node:crypto';
import { Actor } from '../shared/event-sourcing/actor';
import { Role, Scope } from './permissions';

/** Who a request acts as (docs/teams.md): a member of one organisation, directly or through an API key. */
export interface AuthenticatedUser {
  /** The member: the user the token belongs to, or the key's creator. */
  id: number;
  email: string;
  /** Every resource is the organisation's: this is the id it is kept under. */
  organisationId: number;
  /** The member's role now. */
  role: Role;
  /** The organisation's plan limit and webhook signing secret. */
  toolLimit: number;
  /** Set when the request came with an API key: it acts as its creator, within these scopes. */
  apiKey?: { id: number; scopes: readonly Scope[]; expiresAt: string | null };
}

export const actorOfUser = (user: AuthenticatedUser): Actor => (user.apiKey ? { type: 'api_key', id: user.apiKey.id } : { type: 'user', id: user.id });

/** Port the bearer guard asks; the users feature answers it from its read models. */
export abstract class AccessTokenVerifier {
  /** The caller a bearer token (a user token or an API key) stands for; null when it stands for no one now. */
  abstract userForToken(token: string, tokenHash: string): Promise<AuthenticatedUser | null>;
}

/** What a bearer token is known by: only its hash is stored. One-shot, with no Hash object made per request. */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');
