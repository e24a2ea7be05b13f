import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { collectFields } from './collect-fields.stage.js';
import { protectFields } from './protect-fields.stage.js';
import { translateFields } from './translate-fields.stage.js';
import { restoreFields } from './restore-fields.stage.js';
import { checkFields } from './check-fields.stage.js';
import { routeFields } from './route-fields.stage.js';
import { indexTranslations } from './index-translations.stage.js';

/** Translation: collect -> protect -> translate -> restore -> check -> route -> index, per chunk. */
export const stages = [collectFields, protectFields, translateFields, restoreFields, checkFields, routeFields, indexTranslations];

export const schedules = (_config: Config): Schedule[] => [];
