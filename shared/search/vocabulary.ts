import { TypoIndex } from './typo-index.js';

/**
 * A tenant's catalog vocabulary in the API process: every indexed word with its frequency
 * (known words, compounds) and the typo index over them, built once per vocabulary change.
 */
export class Vocabulary {
  readonly typos: TypoIndex;

  constructor(readonly terms: Map<string, number>) {
    this.typos = new TypoIndex(terms);
  }
}
