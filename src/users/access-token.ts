import { randomBytes } from 'node:crypto';

/** API keys are told from user tokens by this start; their first characters are shown as a prefix. */
export const API_KEY_PREFIX = 'ak_';

/** A bearer token: 40 random bytes, URL-safe, never starting as an API key does. Shown once; only its hash is kept. */
export const newAccessToken = (): string => {
  const token = randomBytes(30).toString('base64url');
  return token.startsWith(API_KEY_PREFIX) ? newAccessToken() : token;
};
export const newWebhookSecret = () => randomBytes(24).toString('hex');

export const newApiKey = () => {
  const token = `${API_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
  return { token, prefix: token.slice(0, API_KEY_PREFIX.length + 8) };
};
