import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * wink-nlp with its English model, both from the npm registry: the model and its sentiment lexicon are
 * in the package, nothing is downloaded. Sentence splitting, negation and sentiment only: the part of
 * speech and entity pipes would double the cost per text and sentiment does not use them.
 */
export const sentimentNlp = winkNLP(model, ['sbd', 'negation', 'sentiment']);
