/** Vectors: the embedding pipeline's logic over the Embedder and VectorStore ports. */
export * from './vectors.jobs.js';
export * from './embed-docs.js';
export * from './vector-text.js';
export * from './lag.js';
export * from './start-embed.js';
export * from './query-vectors.js';
