/**
 * Forms complaints take without a negative word, as families of phrasings (on a sentence normalized by
 * `normalizeSentence`): a quoted promise that was not kept, a flat description of wrong behaviour, a
 * price that went up, a question that is a complaint, and ironic praise.
 */

/** Who made a promise to the customer; quoting them in feedback is nearly always to say it was broken. */
const CLAIM_SOURCE =
  '(?:your|the) (?:pricing page|onboarding (?:specialist|manager|consultant)|implementation (?:team|consultant|partner)|(?:customer )?success (?:manager|team)|csm|website|web site|site|sales (?:team|rep|person|guy|people|call|deck)|account (?:manager|executive|rep)|rep|demo|docs|documentation|marketing|landing page|ads?|advert\\w*|listing|brochure|contract|sla|product page|feature page|comparison (?:page|table)|launch (?:post|blog|email|announcement)|announcement|release notes|onboarding (?:call|team)|app store (?:page|listing|description))';

export const MISLED = new RegExp(
  `\\b${CLAIM_SOURCE} (?:clearly |explicitly |specifically |still )?(?:says?|said|claims?|claimed|states?|stated|promis\\w*|list\\w*|show\\w*|mention\\w*|made it (?:look|sound|seem)|advertis\\w*|guarantee\\w*|describ\\w*|told|confirm\\w*|impl\\w*|suggest\\w*)|` +
    '\\b(?:it )?turn(?:s|ed) out(?! to be)\\b|\\bapparently\\b|\\bfound out\\b|\\b(?:nobody|no one) (?:told|mentioned|said|warned)\\b|\\bnowhere (?:on|in|does|did|is|was|do)\\b|' +
    '\\b(?:quietly|silently|secretly|sneakily) (?:\\w+ed|chang\\w*|turn\\w*|rais\\w*|remov\\w*|add\\w*)\\b|' +
    '\\bonly (?:available|included|works?|offered) (?:on|in|with|for) (?:the )?(?:enterprise|higher|next|more expensive|premium|top|upper|business|paid)\\b|' +
    '\\b(?:is|are|was|were) (?:actually|really|in fact) (?:only|just|limited|capped)\\b|\\b(?:hit|hitting|reached) (?:a|the) (?:hidden |secret )?(?:cap|limit)\\b|\\bbehind a paywall\\b',
);

/**
 * What the product does wrong, described without emotion: order, layout, time, data, repeated chores, a setting
 * ignored ("in English even when the language is set to Polish"), playback starting over, data saved without a part,
 * something scheduled outside the hours set for it.
 */
export const WRONG_BEHAVIOUR =
  /\b(?:out of order|in the wrong order|overlap\w*|misalign\w*|cut off|cropped|unreadable|invisible|illegible|go(?:es)? missing|went missing|vanish\w*|disappear\w*|reset\w* (?:when|after|every|each|on|to|itself|themselves|whenever)|revert\w* (?:to|when|after)|expire\w* (?:immediately|instantly|right away|too (?:soon|early|quickly)|after (?:a|one|\d+) (?:minute|second)s?|before)|(?:earlier|later|longer|shorter|more|less|fewer|higher|lower|bigger|smaller) than (?:what |the )?(?:i |we )?(?:entered|expected|selected|set|chose|configured|ordered|paid for|typed|saved|should|it should|they should|normal|usual|the actual)|(?:one|a|an|\d+|two|three) (?:day|hour|minute|week|month)s? (?:off|early|earlier|late|later|behind|ahead)|takes? (?:ages|forever|too long|so long|way too long)|ages to (?:load|open|sync|save|appear)|(?:takes?|took|taking) (?:over |about |almost |nearly |more than |up to |around )?(?:\d+(?:-\d+)?|two|three|four|five|ten|twenty|thirty|several|a few) (?:minutes|hours|days)|(?:shows?|displays?|lists?|counts?|exports?|sends?|creates?|imports?|prints?|uses?) (?:\w+ ){0,3}(?:the wrong|an old|outdated|stale|the old|the previous|(?:our|my) (?:old|previous|former)|someone else's|another user's)|(?:everything|anything|all) (?:but|except)|(?:forgets|forgot|forgotten|loses|clears|cleared|wipes|wiped|deletes|erases|erased|hides|hid|buried|removed) (?:\w+ ){0,3}(?:my|our|the|which|what|where|every|all)|(?:get|got|gets) to (?:re-?\w+|redo|start over)|re-?(?:enter|type|upload|login|log in|do|select|apply|add|create)\w* (?:\w+ ){0,3}(?:every|each|again|whenever|all the time)|(?:takes?|took|is|are|runs?) (?:now )?(?:twice|three times|\d+x|\d+ times) as (?:long|slow)|keeps? (?:asking|resetting|forgetting|logging|signing|crashing|freezing|showing|sending|losing)|struggl\w*|even (?:when|though|if|after) (?:\w+ ){0,4}(?:is|are|was|were|has been|have been) (?:set|switched|changed|turned|configured|enabled|disabled|selected|chosen)|restart\w* (?:from (?:0|zero|scratch|the (?:start|beginning))|over)|outside (?:of )?(?:the |my |our |their |its )?(?:[\w'-]+ ){0,2}(?:working|business|office|opening|set|configured|allowed|available) hours|(?:saved|printed|exported|sent|shown|stored|imported|synced|prints?|saves?|exports?|shows?) (?:\w+ ){0,4}without (?:the|its|their|any)(?! (?:need|hassle|fuss|problem|issue|delay|effort)))\b/;

/** A price that went up is a complaint, whatever the words around it. */
export const PRICE_RISE =
  /\b(?:pay(?:ing)? (?:double|twice|more|extra)|(?:price|prices|pricing|cost|costs|fee|fees|bill) (?:\w+ ){0,2}(?:went up|goes up|has gone up|have gone up|increase[ds]?|hike[ds]?|doubled|jumped|tripled)|(?:price|cost) (?:increase|hike)s?|more expensive|(?:raised|increased|doubled|hiked) (?:the |your |our )?(?:price|prices|pricing|fees?|rates?))\b/;

/**
 * Questions that are complaints: "Is it normal that...", "Am I the only one...", "What happened to...",
 * "When is ... going to work again?", "Does the waitlist actually work?", "Did the update break shuffle?". A question
 * ending on "again" or "anymore" asks about a relapse.
 */
export const COMPLAINING_QUESTION =
  /^(?:is it (?:normal|expected|intended|supposed to|just me|really)|is this (?:normal|expected|intended|a bug|a known)|am i the only one|is anyone else|has anyone else|does anyone else|what happened to|what is going on with|what is wrong with|how (?:am i|are we|is anyone|are users) supposed to|how long (?:does (?:a |the |my |it )?(?:\w+ )?take|until|before|do (?:i|we) have to|will (?:it|this|we|i)|is (?:it|this) going to)|when (?:is|are|will) (?:\w+ ){1,4}(?:going to )?(?:work|be (?:fixed|working|back|resolved|sorted))|(?:does|do|did|is|are|will) (?:[\w-]+ ){1,4}(?:actually|even|ever|really) (?:work|works|load|sync|do anything|arrive|get fixed)|(?:did|has|have) (?:the|your|this|that|a) (?:\w+ ){0,3}(?:update|release|version|upgrade|change|patch|redesign) (?:break|broken|remove|removed|kill|killed|mess up|messed up|reset|wipe|wiped|delete|deleted|disable|disabled))\b|\bwork for anyone\b|\b(?:again|anymore|any more|any longer)\W*\?*$/;

/**
 * Ironic exaggeration that needs no praise word to be read as a complaint, and a promise quoted back ("'No hidden
 * fees' they said.").
 */
export const IRONY =
  /^(?:oh )?(?:sure|yeah right)\b|\bbecause (?:everyone|everybody|who does not|nobody|we all) (?:loves?|enjoys?|wants?|likes?)\b|\bsaid (?:no|nobody|no one)\b|\bnew record\b|\b(?:recommend(?: it)?|ever|great|perfect|ideal|brilliant) if you (?:enjoy|like|love) [\w-]+ing\b|\bis it too much to ask\b|\bbuild(?:s|ing)? character\b|\bkeeps? (?:life|things|it) interesting\b|\bkeeps? (?:the|my|our) (?:weekends?|mornings?|evenings?|nights?|days?|holidays?|mondays?|fridays?) (?:interesting|exciting|fun|lively|thrilling)\b|\bkeeps? (?:me|us) on (?:my|our) toes\b|\bmiracles? (?:do |still )?happen\b|\ba (?:whole|full|entire) (?:day|week|month|hour) without\b|^["'][^"']{1,80}["'],? (?:they|you|he|she|it|sales|support|the (?:ads?|site|website|rep|app|listing|page)) (?:said|say|says|promised|claimed|claim|told (?:us|me)|advertised)\b/;

/**
 * Sarcasm an account note reports ("Customer joked that...", "said, with obvious sarcasm, ..."), praise of a way
 * to lose something ("five stars for the most creative way to..."), gladness that led only to a problem ("so glad
 * I upgraded just to see..."), and the feat of making things worse ("managed to make payroll take longer").
 */
export const REPORTED_IRONY =
  /\b(?:with (?:obvious |clear |heavy |some |a lot of |thinly veiled |a hint of )?sarcasm|sarcastically|(?:joked|joking|jokes|quipped) (?:that|about)|tongue in cheek)\b|\b(?:five|5) stars? for (?:the |a |your )?(?:most |very )?\w+ way\b|\b(?:five|5|ten|10) stars? for (?:the |all the |those |these )?(?:surprise|surprising|hidden|unexpected|extra|random|mystery|double) \w+|\bthe most (?:creative|innovative|inventive|original|elegant|efficient) way to\b|^(?:i am |we are )?(?:so |really |very |just )?(?:glad|happy|thrilled|delighted|excited|pleased) (?:\w+ ){1,6}just to (?:see|get|find|be|lose|wait|watch|have)\b|\bmanaged to (?:make|turn) (?:\w+ ){0,4}(?:take longer|longer|slower|worse|harder|more (?:complicated|confusing|painful|expensive|tedious))\b/;

/**
 * Praise that opens a sentence about how something behaves ("Love how...", "Thanks for the update that...",
 * "Kudos to whoever...") or as an interjection ("Wonderful, the sync finished."): ironic when the text reports
 * a problem, sincere otherwise.
 */
export const PRAISE_OPENER =
  /^(?:oh )?(?:great|wonderful|fantastic|brilliant|perfect|lovely|awesome|amazing|nice|super|excellent|splendid|marvell?ous|(?:great|good|nice) (?:job|work)|well done|bravo|kudos)\s*[,!]|^(?:(?:i |we )?(?:just |really |absolutely |so |truly )?(?:love|adore|appreciate|enjoy)|amazing|incredible|impressive|great|brilliant|fantastic|wonderful|so glad|glad|kudos|bravo|well done|great job|good job|nice job|way to go|congrat\w*|thanks|thank you)\b[^.!?]*?\b(?:how|that|the way|whoever|when|i get to|we get to)\b/;

/** Where and when a bug happens: the frame of a bug report, counted weakly (neutral texts use it too). */
export const BUG_FRAME =
  /\b(?:when(?:ever)? (?:i|we|you|a user|users|someone|clicking|opening|saving)|each time (?:i|we)|after (?:i|we) (?:\w+ed|click|open|save|update|switch)|on (?:ios|android|safari|chrome|firefox|edge|windows|mac|macos|ipad|iphone|small screens|the mobile app|the web app|the desktop app)|(?:chrome|firefox|safari|edge|windows|ios|android) \d+)\b/;
