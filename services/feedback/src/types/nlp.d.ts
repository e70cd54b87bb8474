/** The parts of nlp.js's language packages and of stopword that the service uses (they ship no types). */
interface NlpjsStemmer {
  tokenizeAndStem(text: string, keepStops?: boolean): string[];
}
interface NlpjsSentimentLexicon {
  afinn?: Record<string, number>;
  senticon?: Record<string, number>;
  pattern?: Record<string, number>;
  negations: { words: string[] };
  stemmed?: boolean;
}
declare module '@nlpjs/lang-de' {
  export const StemmerDe: new () => NlpjsStemmer;
  export const SentimentDe: NlpjsSentimentLexicon;
}
declare module '@nlpjs/lang-fr' {
  export const StemmerFr: new () => NlpjsStemmer;
  export const SentimentFr: NlpjsSentimentLexicon;
}
declare module '@nlpjs/lang-es' {
  export const StemmerEs: new () => NlpjsStemmer;
  export const SentimentEs: NlpjsSentimentLexicon;
}
declare module '@nlpjs/lang-pt' {
  export const StemmerPt: new () => NlpjsStemmer;
  export const SentimentPt: NlpjsSentimentLexicon;
}
declare module '@nlpjs/lang-nl' {
  export const StemmerNl: new () => NlpjsStemmer;
  export const SentimentNl: NlpjsSentimentLexicon;
}
declare module '@nlpjs/lang-it' {
  export const StemmerIt: new () => NlpjsStemmer;
  export const SentimentIt: NlpjsSentimentLexicon;
}
declare module 'stopword' {
  export const eng: string[];
  export const deu: string[];
  export const fra: string[];
  export const spa: string[];
  export const por: string[];
  export const nld: string[];
  export const ita: string[];
}
