/** The Translator port and its adapters. */
export * from './port.js';
export { OpenAiTranslator, parseAnswer, type OpenAiTranslatorOptions } from './openai.translator.js';
export { createTranslator } from './create-translator.js';
