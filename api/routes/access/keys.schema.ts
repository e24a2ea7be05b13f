import { z } from 'zod';
import { SCOPES } from '../../../shared/access/scopes.js';
import { Timestamp } from '../../http/schemas.js';

const Origin = z
  .string()
  .max(255)
  .regex(/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/, 'an origin is scheme://host[:port], e.g. https://shop.example or https://*.example.com');

export const KeyParams = z.object({ key_id: z.string().max(64) });

export const CreateKey = z.strictObject({
  name: z.string().min(1).max(100),
  kind: z.enum(['public', 'secret']),
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).nullish(),
  allowed_origins: z
    .array(Origin)
    .max(100)
    .optional()
    .describe('browser origins the key may be used from: at least one required for a public key; a secret key takes none'),
  expires_at: Timestamp.nullish(),
});

export const PatchKey = z.strictObject({
  name: z.string().min(1).max(100).nullish(),
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).nullish(),
  allowed_origins: z
    .array(Origin)
    .max(100)
    .nullish()
    .describe('replaces the list: at least one origin for a public key (an empty list is 400); a secret key takes none; null or absent keeps it'),
});

export const RotateKey = z.strictObject({
  grace_hours: z.number().int().min(0).max(720).default(24),
});

export const ApiKeyOut = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['public', 'secret']),
  prefix: z.string(),
  last4: z.string(),
  scopes: z.array(z.string()),
  allowed_origins: z.array(z.string()),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});

export const ApiKeyCreated = ApiKeyOut.extend({ key: z.string().describe('the full key; shown only once') });
