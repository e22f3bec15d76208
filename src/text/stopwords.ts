import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const lists = require('stopword') as { eng: string[]; zho: string[] };

/**
 * English and Chinese stopwords from the maintained `stopword` package, plus the few function
 * words that Intl.Segmenter splits off and the package leaves out.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([...lists.eng, ...lists.zho, '是', '在', '了', '这', '那', '一个', '也', '就', '都', '而', '着', 's', 't']);
