export { analyzeSentiment, type Sentiment, type SentimentResult } from './analyzeSentiment';
export {
  readFeedback,
  withSentiment,
  type FeedbackReading,
  type SentimentFields,
  type SentimentSource,
} from './feedbackSentiment';
