import type { Sentiment } from '../../model/feedbackItem';
import type { ItemSentence, ItemToken } from 'wink-nlp';
import { sentimentNlp } from './englishNlp';
import { concedesItself, contrastClauses, fearsFirst, opensVerdict, type Clause } from './contrast';
import { MAX_PROBLEMS, normalizeSentence, sentenceCues, type SentenceCues } from './feedbackCues';
import { leadingScore } from './ratingCues';
import { wordFeatures, wordScore } from './wordModel';

export type { Sentiment };

export interface SentimentResult {
  sentiment: Sentiment;
  /** -1 (most negative) to 1 (most positive). */
  score: number;
}

/** The knobs of the rule; the values in use were chosen on the tuning data of the evaluation sets. */
export interface SentimentTuning {
  /** Subtracted per reported problem in a sentence (at most `MAX_PROBLEMS` count). */
  problemWeight: number;
  /** Added per denied or solved problem and praise idiom. */
  reliefWeight: number;
  /**
   * Factor on the lexicon score of a sentence that asks or wishes as a whole ("It would be nice to..."),
   * and on the reliefs of any question or request.
   */
  requestDamping: number;
  /** Factor on the problems a question or request names ("Do you collect crash reports?"). */
  requestProblemFactor: number;
  /** Factor on praise in a sentence that also reports a problem ("Great, another crash"), or in an ironic text. */
  praiseBesideProblem: number;
  /** Factor on the praise of a sentence that calls the product merely okay ("It's fine."). */
  lukewarmDamping: number;
  /** How far the text's score moves from the sentences' mean towards its most negative sentence (0 to 1). */
  worstPull: number;
  /** Weight of a clause conceded before or after the verdict ("Nice UI, but..."), against 1 for the verdict. */
  concededWeight: number;
  /** Weight of the word model's score (`wordModel.ts`, -1 to 1) added to the cues' score. */
  wordWeight: number;
  /**
   * Factor on the word model where nothing else reads anything (no cue, no lexicon word): a plain
   * statement ("I updated the app to 5.2 this morning") shares its words with complaints.
   */
  silentWordFactor: number;
  /** Added per committing phrase (renewal, upgrade, more seats), subtracted per leaving one, at most two of each. */
  decisionWeight: number;
  /** Scores at or below are negative. */
  negativeAtMost: number;
  /** Scores at or above are positive. */
  positiveAtLeast: number;
}

/**
 * Chosen by the fourth round's grid. The fifth round's grid picks worst pull 0.25, decision weight 0.6 and
 * thresholds -0.3235 / 0.201 instead; not adopted, because it reads "It's fine." and plain statements as
 * negative and is worse on the check parts (services/feedback/eval/ROUNDS.md, fifth round).
 */
export const SENTIMENT_TUNING: SentimentTuning = {
  problemWeight: 0.6,
  reliefWeight: 0.6,
  requestDamping: 0,
  requestProblemFactor: 0.25,
  praiseBesideProblem: 0,
  lukewarmDamping: 0,
  worstPull: 0.5,
  concededWeight: 0.1,
  decisionWeight: 0.8,
  wordWeight: 4,
  silentWordFactor: 0.4,
  negativeAtMost: -0.3965,
  positiveAtLeast: 0.178,
};

const its = sentimentNlp.its;

/** Title and content read as one text; the title ends its own sentence. */
export function feedbackText(title: string, content: string): string {
  const head = title.trim();
  return /[.!?]$/.test(head) || head === '' ? `${head} ${content}` : `${head}. ${content}`;
}

const clamp = (value: number) => Math.max(-1, Math.min(1, value));

/** What a text says before any tuning is applied: its sentences' cues and its words for the word model. */
export interface TextReading {
  sentences: SentenceReading[];
  words: string[];
}

/** What one sentence, or one clause of a contrast, says before any tuning is applied. */
export interface SentenceReading {
  /** wink-nlp's lexicon score of the sentence or clause, negations included (-1 to 1). */
  lexicon: number;
  cues: SentenceCues;
  /** A concession before or after the text's verdict (`contrast.ts`). */
  conceded: boolean;
}

/**
 * The clauses of a contrast, each with its own lexicon score. A request anywhere in the sentence makes
 * each clause one ("..., but an option for it would be a nice addition"), and a verdict that only asks
 * for something ("Great app, but please add...") concedes nothing.
 */
function readClauses(sentence: string, clauses: Clause[]): SentenceReading[] {
  const whole = sentenceCues(normalizeSentence(sentence));
  const readings = clauses.map(({ text, conceded }) => {
    const cues = sentenceCues(normalizeSentence(text));
    cues.request ||= whole.request;
    cues.requestOnly ||= whole.requestOnly;
    return { lexicon: sentimentNlp.readDoc(text).out(its.sentiment) as number, cues, conceded };
  });
  const verdict = readings.find(({ conceded }) => !conceded)!;
  const asksOnly = verdict.cues.requestOnly && verdict.cues.problems === 0 && verdict.cues.decisions.leaving === 0;
  if (asksOnly) for (const reading of readings) reading.conceded = false;
  // A fear conceded before a verdict that names no problem was proved wrong ("I was worried..., but it was clear").
  if (
    verdict.cues.problems === 0 &&
    readings.some(({ conceded }, i) => conceded && fearsFirst(normalizeSentence(clauses[i].text)))
  ) {
    verdict.cues.reliefs += 1;
    verdict.cues.denial = true;
  }
  // A commitment conceded before a complaint sets the complaint up ("We would like to continue, but the price went up").
  if (verdict.cues.problems > 0)
    for (const reading of readings) if (reading.conceded) reading.cues.decisions.committing = 0;
  return readings;
}

/**
 * Names of features and topics whose words the lexicon reads as judgements: "dark mode" is a feature, not
 * a dark verdict ("Could dark mode follow the system setting?" was read as a complaint), "best practices"
 * a topic, not praise, an "outstanding invoice" an unpaid one, "the default" a setting, not a missed payment; the
 * text is read with a word the lexicon has no sentiment for in its place.
 */
const TOPIC_NAMES: Array<[RegExp, string]> = [
  [/\bdark(?=[ -](?:mode|theme|themes|modes|ui|skin)\b)/gi, 'night'],
  [/\bbest(?=[ -]practices?\b)/gi, 'common'],
  [
    /\boutstanding(?= (?:invoices?|balances?|amounts?|payments?|bills?|fees|items|tickets|tasks|questions|orders)\b)/gi,
    'open',
  ],
  [/\b(the|by|as|a|our|their|your|my|to) default\b/gi, '$1 standard'],
];
const withoutVerdictWords = (text: string) =>
  TOPIC_NAMES.reduce((read, [name, readAs]) => read.replace(name, readAs), text);

/** A score opening the text ("9. Makes my job easier", "3 - we are testing..."): a problem or praise of its first sentence. */
function addLeadingScore(text: string, readings: SentenceReading[]): void {
  const score = leadingScore(text);
  const first = readings[0];
  if (score < 0) first.cues.problems = Math.min(first.cues.problems + 1, MAX_PROBLEMS);
  if (score > 0) first.cues.reliefs += 1;
}

/**
 * Thanks to someone in a sentence that names no problem makes the other sentences the story of the help ("Thanks to Ana
 * in support. I had lost a whole evening to the pairing; she sorted it in ten minutes."): their problems are the past
 * the thanks are for, so they are conceded, unless the text leaves or mocks.
 */
function concedeStoryOfHelp(readings: SentenceReading[]): void {
  const thanks = readings.some(({ cues, conceded }) => cues.gratitude && cues.problems === 0 && !conceded);
  if (!thanks || readings.some(({ cues }) => cues.sarcasm || cues.decisions.leaving > 0)) return;
  for (const reading of readings) if (!reading.cues.gratitude) reading.conceded = true;
}

/**
 * The tuning-independent, costly part: wink-nlp reads the text once; only the clauses of a contrast
 * ("..., but ...") are read again, each on its own, for their lexicon scores.
 */
export function readSentences(title: string, content: string): TextReading {
  const readings: SentenceReading[] = [];
  const whole = withoutVerdictWords(feedbackText(title, content));
  const doc = sentimentNlp.readDoc(whole);
  doc.sentences().each((sentence: ItemSentence) => {
    const text = sentence.out();
    if (opensVerdict(text)) for (const reading of readings) reading.conceded = true;
    const clauses = contrastClauses(text);
    if (clauses.length === 1) {
      const normalized = normalizeSentence(text);
      readings.push({
        lexicon: sentence.out(its.sentiment) as number,
        cues: sentenceCues(normalized),
        conceded: concedesItself(normalized),
      });
      return;
    }
    readings.push(...readClauses(text, clauses));
  });
  concedeStoryOfHelp(readings);
  // A nitpick beside other sentences ("..., minor thing") is no verdict; a text of nitpicks only has its verdict in them.
  if (readings.every(({ conceded }) => conceded)) for (const reading of readings) reading.conceded = false;
  if (readings.length > 0) addLeadingScore(normalizeSentence(whole), readings);
  const tokens: ItemToken[] = [];
  doc.tokens().each((token: ItemToken) => tokens.push(token));
  return { sentences: readings, words: wordFeatures(tokens) };
}

/** The sentence says nothing the cues or the lexicon read (a title: "Invoice copy"). */
const saysNothing = ({ cues, lexicon }: SentenceReading) =>
  lexicon === 0 &&
  cues.problems === 0 &&
  cues.reliefs === 0 &&
  cues.weakProblems === 0 &&
  cues.decisions.leaving === 0 &&
  cues.decisions.committing === 0;

/** The sentence says something, and more than a greeting or thanks ("Could you...? Thanks in advance." only asks). */
const adds = (reading: SentenceReading) => !saysNothing(reading) && !reading.cues.courtesy;

/** The sentence shrugs ("It's okay, nothing special", "no strong feelings either way") without naming a problem. */
const shrugs = ({ cues }: SentenceReading) => cues.lukewarm && cues.problems === 0 && cues.decisions.leaving === 0;

/**
 * Every sentence asks or proposes (the problems it names are already damped; a complaint in question form
 * is no request), or says nothing.
 */
const onlyAsks = (readings: SentenceReading[]) =>
  readings.some(({ cues }) => cues.request) &&
  readings.every((reading) => reading.cues.decisions.leaving === 0 && (reading.cues.request || !adds(reading)));

/**
 * Sentence scores are wink-nlp's lexicon score adjusted by what feedback says without sentiment words
 * (`feedbackCues`). The text's score is their mean, pulled towards its most negative sentence when there
 * is one (`worstPull`), because one complaint in a long, polite message is still a complaint; a clause
 * conceded before or after the verdict ("Nice UI, but...") weighs less and pulls nothing. Irony anywhere
 * in the text ("Oh great, ...") empties the praise of every sentence. Decisions (leaving, committing)
 * and the word model's reading are added to that.
 */
export function combineSentences(
  { sentences: readings, words }: TextReading,
  tuning: SentimentTuning = SENTIMENT_TUNING,
  /** The word model's score; the evaluation passes one from a model that never saw the text. */
  learned: number = wordScore(words),
): number {
  if (readings.length === 0) return 0;
  const reportsProblem = readings.some(({ cues }) => cues.problems > 0 || cues.decisions.leaving > 0);
  const ironic = readings.some(
    ({ cues }) => cues.sarcasm || (cues.praiseOpener && cues.reliefs === 0 && reportsProblem),
  );
  let sum = 0;
  let weights = 0;
  let worst = 0;
  let leaving = 0;
  let committing = 0;
  // A sentence that says nothing (a title such as "Mobile widgets", a plain statement of context) is no
  // neutral verdict: it would only dilute what the other sentences say.
  const speaking = readings.some(adds) ? readings.filter(adds) : readings;
  for (const { lexicon, cues, conceded } of speaking) {
    leaving += cues.decisions.leaving;
    committing += cues.decisions.committing;
    let praise = lexicon;
    if (cues.requestOnly) praise *= tuning.requestDamping;
    if (cues.lukewarm && praise > 0) praise *= tuning.lukewarmDamping;
    // "I don't have strong feelings either way": the lexicon reads the negated word as a complaint.
    if (cues.lukewarm && cues.problems === 0 && praise < 0) praise = 0;
    if ((cues.problems >= 1 || cues.decisions.leaving > 0 || ironic) && praise > 0)
      praise *= tuning.praiseBesideProblem;
    if (cues.notOurProblem || cues.denial) praise = Math.max(praise, 0);
    // A weak problem word in a sentence the lexicon finds positive is not a complaint ("much better since the update").
    const reported = cues.problems + (praise > 0 ? 0 : cues.weakProblems);
    const problems = cues.notOurProblem
      ? 0
      : Math.min(reported, MAX_PROBLEMS) * (cues.request ? tuning.requestProblemFactor : 1);
    const reliefs = ironic ? 0 : cues.reliefs * (cues.request ? tuning.requestDamping : 1);
    const score = praise + tuning.reliefWeight * reliefs - tuning.problemWeight * problems;
    const weight = conceded ? tuning.concededWeight : 1;
    sum += weight * score;
    weights += weight;
    if (!conceded) worst = Math.min(worst, score);
  }
  const mean = sum / weights;
  // Decisions count whatever their sentence's form; leaving wins over committing ("renewing, minus the add-on").
  const decided = leaving > 0 ? -Math.min(leaving, MAX_PROBLEMS) : ironic ? 0 : Math.min(committing, MAX_PROBLEMS);
  const cues = (worst < 0 ? mean + (worst - mean) * tuning.worstPull : mean) + tuning.decisionWeight * decided;
  // A text that only asks or proposes is neutral unless a cue says otherwise: the words of questions
  // ("stored", "refund policy", "trial") are the words of complaints too.
  // The word model fills in where the cues are silent: the surer the cues, the less the words add.
  // A shrug is a verdict of its own: the words of "fine" and "okay" are those of every kind of text.
  const shrug = readings.some(shrugs) && readings.every((reading) => shrugs(reading) || !adds(reading));
  const asks = onlyAsks(readings);
  const silent = readings.every(saysNothing);
  // A request or question that names no problem is neutral whatever its words ("Show the total hours on the
  // invoice", "If I pause my subscription, do my presets stay?" share their words with complaints); a question
  // that complains says so with a cue (a problem word, "why...", "is there any reason..."), and keeps its words.
  const asksPlainly = asks && readings.every(({ cues }) => cues.problems === 0 && cues.weakProblems === 0);
  const textFactor =
    shrug || asksPlainly ? 0 : asks ? tuning.requestProblemFactor : silent ? tuning.silentWordFactor : 1;
  const wordFactor = textFactor * Math.max(0, 1 - Math.abs(cues));
  // Irony is praise words meaning the opposite: the words' praise is emptied as the lexicon's is. A request
  // is no praise either ("Could you send the signed contract...?" has the words of a renewal). A denial in a
  // text that reports no problem is praise in the words of complaints ("couldn't run the studio without it
  // anymore", "not a single crash"), and so is a text whose only problem words are the customer's own ("a typo in our
  // own config, not your issue"): their complaint is emptied as the lexicon's is.
  const denies =
    !reportsProblem && readings.some(({ cues }) => cues.denial || (cues.notOurProblem && cues.weakProblems > 0));
  const read = ironic || asks ? Math.min(0, learned) : denies ? Math.max(0, learned) : learned;
  const score = cues + wordFactor * tuning.wordWeight * read;
  return Math.round(clamp(score) * 1000) / 1000;
}

/** Score of one feedback text, offline, from -1 to 1. */
export function scoreSentiment(title: string, content: string, tuning: SentimentTuning = SENTIMENT_TUNING): number {
  return combineSentences(readSentences(title, content), tuning);
}

export function sentimentOfScore(score: number, tuning: SentimentTuning = SENTIMENT_TUNING): Sentiment {
  if (score <= tuning.negativeAtMost) return 'negative';
  if (score >= tuning.positiveAtLeast) return 'positive';
  return 'neutral';
}

/** The sentiment the service stores when a new item comes without one. */
export function analyzeSentiment(title: string, content: string): SentimentResult {
  const score = scoreSentiment(title, content);
  return { sentiment: sentimentOfScore(score), score };
}
