export { analyzeSentiment, type Sentiment, type SentimentResult } from './analyzeSentiment';
