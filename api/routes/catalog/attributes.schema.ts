import { z } from 'zod';
import { Timestamp } from '../../http/schemas.js';

export const AttributeInfo = z.object({
  raw_name: z.string(),
  canonical_name: z.string().nullable(),
  products: z.number().int(),
  sample_values: z.array(z.string()),
  facet: z.boolean(),
  unit: z.string().nullable(),
});

export const MappingItemIn = z.strictObject({
  raw_name: z.string().min(1).max(200),
  canonical_name: z
    .string()
    .min(1)
    .max(100)
    // Letters and digits of any script (an Arabic store names its facets in Arabic: "المقاس"), with their marks, _ - and spaces.
    .regex(/^[\p{L}\p{N}_][\p{L}\p{M}\p{N}_ -]*$/u, 'letters, digits, _ - and spaces'),
  unit: z.string().max(20).nullish(),
  value_map: z.record(z.string().max(1000), z.string().max(1000)).optional(),
  facet: z.boolean().default(true),
});

export const AttributeMappingIn = z.strictObject({ items: z.array(MappingItemIn).max(2000) });
export const AttributeMapping = z.object({ items: z.array(MappingItemIn), updated_at: Timestamp.nullable() });
