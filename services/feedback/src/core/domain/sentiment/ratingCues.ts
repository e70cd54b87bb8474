/**
 * A score the customer gave with the text (NPS comments, app-store and review ratings): "NPS 4 - ...",
 * "Score: 9", "2/5", "1 star". Its scale says what it means better than any word of the text: on the NPS
 * scale 0-6 is a detractor and 9-10 a promoter; out of 5 (or stars) 1-2 is low and 4-5 high.
 */

const NPS =
  /^(?:nps|nps score|score|rating|rated)\s*[:=-]?\s*(\d{1,2})\b(?!\s*(?:\/|out of|stars?|%|seats|users|minutes|hours|days))/;
const OUT_OF = /\b(\d{1,2})\s*(?:\/|out of)\s*(5|10)\b/;
const STARS = /\b([1-5]|one|two|three|four|five)[- ]stars?\b|^(★+)/;
const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

/**
 * A bare number opening a text ("9. Makes my job easier", "3 - we are testing another tool", "10, ..."): the
 * score of an NPS survey's comment, on its 0-10 scale. Not the first step of a numbered list. Without the word
 * "NPS" it is read more cautiously: 5 and 6 come with shrugs as often as with complaints ("6. Does the job.").
 */
const LEADING_SCORE = /^(\d{1,2})\s*(?:[.,:)]|\s[-—–]|[—–])\s+\S/;
const LIST_STEP = /[.!?]\s+\d{1,2}[.)]\s/;

/** -1 for a low score (0-4), 1 for a promoter's (9-10), 0 otherwise (on a whole text normalized by `normalizeSentence`). */
export function leadingScore(text: string): -1 | 0 | 1 {
  const opening = LEADING_SCORE.exec(text);
  if (!opening || LIST_STEP.test(text)) return 0;
  const score = Number(opening[1]);
  return score > 10 ? 0 : score <= 4 ? -1 : score >= 9 ? 1 : 0;
}

/** -1 for a low score, 1 for a high one, 0 for a middle score or none (on a sentence normalized by `normalizeSentence`). */
export function ratingCue(sentence: string): -1 | 0 | 1 {
  const nps = NPS.exec(sentence);
  if (nps) {
    const score = Number(nps[1]);
    if (score > 10) return 0;
    return score <= 6 ? -1 : score >= 9 ? 1 : 0;
  }
  const outOf = OUT_OF.exec(sentence);
  if (outOf) {
    const share = Number(outOf[1]) / Number(outOf[2]);
    if (share > 1) return 0;
    return share <= 0.4 ? -1 : share >= 0.8 ? 1 : 0;
  }
  const stars = STARS.exec(sentence);
  if (stars) {
    const count = stars[2] ? stars[2].length : (WORDS[stars[1]] ?? Number(stars[1]));
    return count <= 2 ? -1 : count >= 4 ? 1 : 0;
  }
  return 0;
}
