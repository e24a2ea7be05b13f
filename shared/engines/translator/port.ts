/**
 * The machine-translation port. A translator turns a batch of texts (placeholders such as
 * `{{P0}}` already masked by the caller) from one locale into another in one provider call;
 * glossary enforcement, quality checks and routing live above this port.
 */

export interface TranslationText {
  /** Caller's key for the text; the answer carries the same ids. */
  id: string;
  text: string;
}

export interface TranslateRequest {
  sourceLocale: string;
  targetLocale: string;
  texts: TranslationText[];
  signal?: AbortSignal;
}

export interface TranslateResult {
  /** Translated text by id; an id the provider left out is missing here. */
  texts: Map<string, string>;
  inputTokens: number;
  outputTokens: number;
  /** What the call cost, in millionths of a US dollar. */
  costMicros: number;
}

export type TranslatorErrorKind = 'rate_limited' | 'timeout' | 'provider' | 'bad_response';

/** A failed call; `retryable` says whether trying again later can help. */
export class TranslatorError extends Error {
  constructor(
    readonly kind: TranslatorErrorKind,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'TranslatorError';
  }
}

export interface Translator {
  /** Recorded on each item (`provider`), e.g. `openai:gpt-4o-mini`. */
  readonly name: string;
  translate(req: TranslateRequest): Promise<TranslateResult>;
  /** Estimated cost of translating `chars` characters in `calls` calls, in micro-USD. */
  estimateCostMicros(chars: number, calls: number): number;
}

/** The placeholder form callers mask protected spans with; translators must keep them verbatim. */
export const PLACEHOLDER = /\{\{\s*P(\d+)\s*\}\}/g;
export const placeholder = (n: number) => `{{P${n}}}`;
