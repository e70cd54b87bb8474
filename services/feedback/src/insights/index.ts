// feedbackInsights: an organization's figures over a range (volume, sentiment, status, sources, a series),
// its previous period, the negative feedback's top terms and the themes that grew.
export { InsightsStore } from './data/insightsStore';
export { feedbackInsights, feedbackInsightsFields, type FeedbackInsights } from './feedbackInsights';
export { periodFigures } from './periodFigures';
