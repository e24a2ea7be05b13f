import { z } from 'zod';

/** An ISO 8601 date-time with an offset, as every timestamp of the API is. */
export const Timestamp = z.iso.datetime({ offset: true });
