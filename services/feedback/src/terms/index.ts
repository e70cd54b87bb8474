// The terms of feedback texts (stems, phrases, concepts and their spellings): what themes, similarity and
// the insights' top terms are made of.
export { contentWords, spellingOf, Spellings, textTerms } from './feedbackTerms';
export { TermCounter } from './topTerms';
