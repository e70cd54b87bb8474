export { analyzeSentiment, type Sentiment, type SentimentResult } from './analyzeSentiment';
export { withSentiment, type SentimentFields, type SentimentSource } from './feedbackSentiment';
