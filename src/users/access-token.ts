import { randomBytes } from 'node:crypto';

/** A bearer token: 40 random bytes, URL-safe. Shown once; only its hash is kept. */
export const newAccessToken = () => randomBytes(30).toString('base64url');
export const newWebhookSecret = () => randomBytes(24).toString('hex');
