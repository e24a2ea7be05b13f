import { refreshVocabulary } from './refresh-vocabulary.stage.js';

/** Search: rebuild a tenant's vocabulary, suggestion dictionary and category profiles. */
export const stages = [refreshVocabulary];
export const schedules = () => [];
