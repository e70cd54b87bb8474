/**
 * A mixed text is judged by its verdict, the part a support team would act on: "Nice UI, but sync is
 * broken" is a complaint, "A few rough edges, but we just renewed" is praise. The verdict is what
 * follows "but" / "however" or an opening "although ..., "; a trailing "though ..." or "even if ..."
 * only concedes. A sentence opening with "But", "However", "Overall"... turns the sentences before it
 * into concessions.
 */

export interface Clause {
  text: string;
  /** Conceded before or after the verdict: it weighs less in the text's score. */
  conceded: boolean;
}

/**
 * "but" that does not contrast: "not only ... but also", "nothing but", "all but", and a balance ending on "either"
 * ("no complaints, but no enthusiasm either"), which `feedbackCues` reads whole as a shrug.
 */
const BUT = /(?:,|;|\s-)?\s+(?:but|however|yet)\s+(?!also\b|not\b)(?![^.!?]*\beither\W*$)(?=\S+\s+\S+)/gi;
const NOT_CONTRAST_BEFORE = /\b(?:nothing|anything|all|not only|everything)$/i;
const OPENING_CONCESSION =
  /^(?:although|though|even though|while|whilst|despite|apart from|aside from|other than|except for)\b([^,]{3,}),\s*(\S.*)$/is;
const TRAILING_CONCESSION = /^(.*\S)\s*,\s*(?:although|though|even though|even if|except (?:that|for))\b(.{3,})$/is;
/** Opening a sentence, these make the sentences before it a concession. */
const VERDICT_OPENER =
  /^(?:(?:but|however|that said|having said that|overall|all in all|in the end|nevertheless|nonetheless|even so|on the whole|in short)\b|still,)/i;

/** The clauses of one sentence, conceded or verdict, in their order. */
export function contrastClauses(sentence: string): Clause[] {
  let cut: { index: number; length: number } | undefined;
  for (const match of sentence.matchAll(BUT)) {
    const before = sentence.slice(0, match.index).trim();
    if (before.split(/\s+/).length >= 2 && !NOT_CONTRAST_BEFORE.test(before))
      cut = { index: match.index!, length: match[0].length };
  }
  if (cut) {
    return [
      { text: sentence.slice(0, cut.index), conceded: true },
      { text: sentence.slice(cut.index + cut.length), conceded: false },
    ];
  }
  const opening = OPENING_CONCESSION.exec(sentence);
  if (opening)
    return [
      { text: opening[1], conceded: true },
      { text: opening[2], conceded: false },
    ];
  const trailing = TRAILING_CONCESSION.exec(sentence);
  if (trailing)
    return [
      { text: trailing[1], conceded: false },
      { text: trailing[2], conceded: true },
    ];
  return [{ text: sentence, conceded: false }];
}

export const opensVerdict = (sentence: string) => VERDICT_OPENER.test(sentence.trim());

/**
 * A sentence that calls itself a nitpick ("The plugin is a little slow, minor thing", "..., that's all", "but no big
 * deal") concedes beside the others.
 */
const NITPICK =
  /\b(?:(?:minor|small|tiny|little) (?:thing|gripe|nitpick|niggle|point|quibble)|(?:my |the )?only (?:complaint|gripe|nitpick|niggle|downside|minus)|nitpick\w*|niggle|quibble|no big deal|not a (?:big deal|deal-?breaker)|(?:we|i) can live with (?:it|that)|(?:my |the )?only wish|would be (?:perfect|flawless|ideal|even better) if)\b|, that is all\W*$/;

/**
 * A fear or low expectation conceded before the verdict ("I was worried the video would be awful, but...", "Didn't
 * expect much from a parking app, but...", "Not usually one for apps that nag, but..."): a verdict that names no
 * problem after it is a relief, the fear proved wrong.
 */
const FEAR =
  /^(?:i|we) (?:was|were|had been|am|are) (?:a bit |a little |really |so |quite |honestly )?(?:worried|afraid|nervous|scared|anxious|sceptical|skeptical|dreading|doubtful|not sure)\b|^(?:i |we )?(?:did not|do not|never) (?:expect|think) (?:much|a lot|it would)|^not usually (?:one|a fan) for\b|^(?:i |we )?(?:had|have) (?:my |our |some )?doubts\b/;

/** On a sentence normalized by `normalizeSentence`. */
export const fearsFirst = (clause: string) => FEAR.test(clause);

/** On a sentence normalized by `normalizeSentence`. */
export const concedesItself = (sentence: string) => NITPICK.test(sentence);
