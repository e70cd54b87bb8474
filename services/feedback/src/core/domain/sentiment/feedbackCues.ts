/**
 * Phrases that carry sentiment in customer feedback where a general-purpose lexicon sees none: "still
 * waiting for the refund", "cannot log in", "charged twice" have no negative word, yet they are the
 * complaints a support team must not miss. Each pattern runs on one sentence normalized by
 * `normalizeSentence`. They describe kinds of phrases, not texts of the evaluation sets.
 */
import {
  BUG_FRAME,
  COMPLAINING_QUESTION,
  IRONY,
  MISLED,
  PRAISE_OPENER,
  PRICE_RISE,
  REPORTED_IRONY,
  WRONG_BEHAVIOUR,
} from './complaintForms';
import { decisionCues, type DecisionCues } from './decisionCues';
import { ratingCue } from './ratingCues';

/** "arrive" → "arrive|arrives|arrived|arriving"; a phrase inflects its first word. Irregular forms are listed by hand. */
const inflected = (verbs: string[]) =>
  verbs
    .map((phrase) => {
      const [verb, ...rest] = phrase.split(' ');
      const stem = verb.endsWith('e') ? verb.slice(0, -1) : verb;
      const forms = verb.endsWith('e')
        ? [verb, `${verb}s`, `${verb}d`, `${stem}ing`]
        : [verb, `${verb}s`, `${verb}ed`, `${verb}ing`];
      return forms.map((form) => [form, ...rest].join(' ')).join('|');
    })
    .join('|');

/** Verbs of something that should happen: after a negation, the customer reports a failure. */
const DUTY_VERBS = `${inflected(
  'work load open save sync connect start launch run arrive respond answer reply valid rely receive show display appear update help fix resolve solve refund send match finish complete export import upload download print play install exist charge process support allow accept recognize recognise'.split(
    ' ',
  ),
)}|${inflected(['log in', 'sign in', 'go through', 'add up', 'make sense', 'free up', 'get back', 'hear back', 'call back', 'come back'])}|replied|replies|running|logged in|logging in|sent|came|come|heard back|let`;

/** One pattern matching where any of the patterns does. */
const anyOf = (patterns: RegExp[]) => new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'));

/** Weight 1: the customer is suffering a problem. */
const PROBLEMS: RegExp[] = [
  // Something does not do its job.
  new RegExp(
    `\\b(?:not|cannot|unable to|never|no longer|stopped|stops|fails? to|failed to|refuses? to)\\s+(?:\\w+\\s+)?(?:${DUTY_VERBS})\\b`,
  ),
  /\b(?:cannot|unable to|no longer)\s+(?:\w+\s+)?(?:use|trust|find|access|reach|contact|see|edit|change|delete|add|create|afford|recommend)\b/,
  /\bkeeps?\s+(?!getting better|improving|working|getting faster|growing|asking for more)(?:\w+\s+)?\w+ing\b/,
  /\b(?:stop|please fix|fix this|fix it|when will (?:it|this|that) be|no way to|there is no way|nothing (?:has )?(?:arrived|happened|changed|works)|(?:finds|found|shows|returns|does|did|happens) nothing)\b/,
  /\b(?:crash\w*|freez\w*|froze|broken|broke|breaks|breaking|fails|failed|failing|defective|unusable|unresponsive|unreliable|laggy|lagging|glitch\w*|buggy|flaky|(?<!that )stuck(?! with)|leak\w*|unanswered|break (?:something|everything|things|stuff)|(?:login|log-in|redirect|sign-in|boot|reboot|infinite|endless) loop|disappeared|fell apart|falls? apart|falling apart|locked out|drain(?:s|ing)?|stall(?:s|ed|ing)?|wrong|dead|throttl\w*|hung up|hangs up|cuts? out|cutting out|drops? out)\b/,
  /\b(?:damaged|cracked|scratched|torn|expired|dirty|smell\w*|cold(?![- ](?:storage|start|chain|brew|call|email|outreach))|rude|noisy|confusing|complicated|clunky|cluttered|difficult|hard to|too many|too much|too expensive|overpriced|over(?:cook|charg)\w*|way too|spam\w*|outdated|garbage|trash|junk|nightmare|tedious|tiring|mediocre|shady|unintuitive|sluggish)\b/,
  /\b(?:used to (?:be|work|love)|expected (?:much |a lot |far |way )?(?:more|better)|needs? (?:a lot of|a lot more|more|much more|serious|some) work|^seriously\b|(?:paying|charged|billed) for (?:\w+ ){0,3}(?:we|i|that we|that i) (?:removed|cancel\w*|deleted|do not use|never used|no longer)|supposed to|tired of|sick of|fed up|gave up|give up|giving up|step backwards?|unfortunately|sadly)\b/,
  /\b(?:cost|costing|costs|lost|losing) (?:us |me )?(?:\w+ )?(?:sales|money|customers|clients|orders|data|time|hours|days|work)\b/,
  // Nothing of a kind works: "none of our exports have worked".
  new RegExp(
    `\\bnone of (?:the|our|my|them|these|those)\\s+(?:\\w+\\s+){0,2}(?:have |has |are |is |were |was |will |seem to |seems to )?(?:${DUTY_VERBS})\\b`,
  ),
  // Time lost to the product: "I spend an hour a day clicking", "one by one".
  /\b(?:spend|spent|spending|waste|wasting|lose|losing) (?:an?|\d+|two|three|several|half an?|hours?|whole) (?:\w+ )?(?:hours?|minutes?|days?|mornings?|afternoons?|evenings?)\b|\bone by one\b/,
  // Another product named beside this one: a customer weighing a way out ("a colleague recommended another app"),
  // not one the customer comes from ("migrating from another tool").
  /(?<!from )\b(?:another|a different|a competing|a rival|a cheaper) (?:app|tool|vendor|provider|product|platform|solution|service)\b/,
  // It happens again and again, or lasts.
  /\b(?:every|each)\s+(?:single\s+|other\s+|few\s+|couple of\s+|\d+\s+|one\s+|two\s+|three\s+|five\s+|ten\s+)?(?:minute|hour|click|page|session|login)s?\b/,
  /\b(?:over and over|again and again|(?:second|third|fourth|fifth) time|(?:two|three|four|five|several|many) times(?! over)|(?<!(?:renew\w*|signed|extended|contract|subscription|plan|term|commitment|licen[cs]e|prepaid|paid|trial|free|flat|steady|stable|unchanged) )for (?:\d+|two|three|four|five|six|several) (?:days|weeks|months))\b/,
  /^(?:twice|three times|yet again|once again)\W*$/,
  /\bstill\s+(?:\w+\s+)?(?:no|not|waiting|broken|missing|open|unresolved|locked|down|empty|wrong|pending|stuck|the same|happening|charg\w*|hav\w*|crash\w*|fail\w*)\b/,
  /\bsame (?:problem|issue|error)\b|(?:^|, )same (?:thing|result)\W*$/,
  /\b(?:no|zero|never got an?y?)\s+(?:response|reply|replies|answers?|solution|fix|update|refund|help|follow-?up)s?\b/,
  /\b(?:nobody|no one)\s+(?:\w+\s+)?(?:answer|repl|respond|help|call|came|care|read|tell|will)\w*/,
  /\b(?:ignored|waiting|waited|on hold)\b/,
  /\b(?:late(?! (?:shifts?|nights?|evenings?|hours|afternoons?)\b)|delayed|overdue|lost|deleted|duplicat(?:e|es|ed)|outage|(?:production|site|server|app|service|system|website|api|everything) (?:is |was |are |has been |went )?down)\b/,
  // What the customer sees instead of the product working.
  /\b(?:blank|white|empty|black) (?:page|screen)\b|\berror (?:page|screen)\b|\b(?:is|are|was|were|comes? out|came out|render\w*|load\w*|shows? up|appear\w*|print\w*|export\w*) (?:\w+ )?(?:empty|blank)\b/,
  /\b(?:get|gets|getting|got|see|seeing|shows?|showing|throws?|throwing|returns?|returning|gives?|giving) (?:an? |the |these )?(?:\w+ )?(?:errors?|timeouts?|[45]\d\ds?|[45]\d\d (?:errors?|responses?|status|codes?))\b/,
  /\bonly (?:\d[\d,.]*|half|some|part) (?:of (?:them|the \w+) )?(?:show|appear|arriv|came|work|load|sync|import|were|was)\w*/,
  /^(?:it|they|this|that|which) (?:was|is|were|are|did|does|has|have) not\W*$|, (?:\w+ ){1,2}(?:is|are|was|were) not\W*$|\bblock(?:s|ing|ed) (?:us|our|me|my|the|all|every|their|them|him|her)\b/,
  /\bnot as (?:described|advertised|expected|pictured|promised|shown)\b|\b(?:than|of the) advertised\b|\b(?:more|longer|slower) than (?:it|they|that) should\b/,
  /\bwithout (?:any |a |my |our )?(?:warning|notice|notification|reminder|consent|permission|asking|explanation|reading|looking|checking|reason)\b/,
  // Nothing where something was expected ("search returns no results"), or an answer that took days.
  /\b(?:has|have|had|returns?|returned|shows?|showed|gives?|gave|finds?|found|contains?|lists?|brings? up) (?:no|zero|0) (?:results?|entries|records|rows|data|items|matches|events|hits)\b|\b(?:replied|responded|answered|got back(?: to (?:me|us))?|came back|(?:got|received|had) (?:a |an |the |their |our |first )?(?:reply|response|answer|callback)) (?:only )?(?:after|in) (?:\d+|two|three|four|five|six|seven|eight|nine|ten|several) (?:full )?(?:days|weeks)\b/,
  // Money the customer wants back.
  /\b(?:refund(?!s? (?:policy|policies|process|terms|period|window))|money back|overcharg\w*|hidden fees?|compensation|took (?:my|our) money)\b/,
  /\b(?:charged|billed|charging)\s+(?:\w+\s+)?(?:twice|again|after|even though|although|anyway|without|double|for a|for the wrong)\b/,
  /\bcancel\w*\s+(?:my|our|the)\s+(?:subscription|account|order|plan|booking)\b|\bcancel\w*\s+(?:immediately|now)\b|^cancell?(?:ing|ed)\W*$/,
  // The customer is leaving.
  /\b(?:thinking|considering|think) (?:of |about )?(?:leaving|switching|cancel\w*|moving|alternatives)\b|\blooking (?:at|for) (?:alternatives|other (?:tools|options|providers|vendors)|another (?:tool|provider|vendor|app))\b/,
  /\b(?:deleting|deleted|uninstall\w*|removing) (?:the|this|your) app\b|\buninstalled\b|\b(?:never|not) (?:\w+ )?(?:again|order\w*|buy\w*|us(?:e|ing)|com(?:e|ing) back|book\w*) again\b|\bnever (?:again|ordering|buying|using|coming back)\b/,
  // The customer is evaluating a way out, or will not renew: churn said calmly.
  /\b(?:(?:started|starting|begun|began|running|run|doing|signed up for) (?:a )?(?:trial|pilot|evaluation) (?:of|with) (?:another|a different|a competing|an alternative|other)|evaluating (?:other|another|alternatives|competitors|a competitor)|(?:moving|switching|migrating|move|switch|migrate|moved|switched|migrated) (?:\w+ )?(?:over )?(?:to|away) (?:another|a different|a competitor|an alternative|from you)(?! (?:team|department|role|position|job|office|project|shift)\b)|competitors? (?:offers?|does|has|is cheaper)|(?:not|never|unlikely to|no longer) (?:going to |planning to |plan to |be )?renew\w*|renewal is (?:at risk|unlikely|in doubt|on hold)|(?:reconsider\w*|review\w*) (?:our|the) (?:subscription|contract|plan|renewal)|pull(?:ing)? the plug)\b/,
  /\b(?:(?:parallel|side-by-side) (?:pilot|trial|evaluation)|(?:pilot|trial|evaluation|poc) (?:with|of) (?!your?\b|the\b|our\b|this\b|it\b)\w+|(?:already )?(?:moved|switched|migrated) to (?!the (?:new|next|latest|annual|business|pro|enterprise|team)\b)\w+|(?:move|moving|switch|switching|go|going|migrate|migrating) (?:\w+ )?(?:to|over to) (?:something|another|a (?:different|cheaper)|elsewhere)(?! (?:team|department|role|position|job|office|project|shift)\b)|go elsewhere|(?:replacement|alternative|other) vendors|shortlist of (?:replacement|alternative|other)|(?:will|we will|we'll) follow unless|unless something changes)\b/,
  /\b(?:terminat\w* (?:the|our|my|this) (?:agreement|contract|subscription|account)|end (?:our|my|the) (?:subscription|contract|agreement|account)|(?:going|decided|plan|planning|want|wants|would like) to (?:cancel|leave|unsubscribe)|(?:will|we will|i will) cancel|cancel at the end|unsubscribed|not (?:be )?renewing|dropping (?:the )?[\w-]+ (?:add-on|addon|module|plan|seats|licen[cs]es)|cut (?:from|down to|back to) \w+|budget cuts?|low adoption|remove (?:the )?\d+ (?:\w+ )?(?:licen[cs]es|seats|users)|downgrad\w*|not for us|not worth (?:the|it)|(?:delete|close) (?:my|our) account)\b/,
  /(?:^|\b(?:we|i) )(?:were|was) (?:assured|promised|told|sold)\b|\b(?:(?:was|were|is|are) (?:presented|marketed|pitched|sold) as|(?:were|was) (?:promised|advertised) (?:as|to|that)|bait and switch|vaporware|not what (?:was|you) (?:advertised|promised|sold|demoed|showed)|not the product (?:we|i) (?:got|bought|paid for|were sold)|would not have (?:upgraded|bought|signed|paid|subscribed)|(?:sold|promised) to us|promised (?:\w+ ){0,4}(?:were|was|would be)|(?:the|your) (?:demo|roadmap|sales (?:rep|team|call)|account manager|onboarding call) (?:showed|said|promised|confirmed|listed))\b/,
  /\b(?:nothing happens|(?:page|screen|window|report|export|dashboard|field|list)s? (?:is |are |stays |goes |went |comes up )?(?:blank|empty)|regardless of (?:the|my|our) (?:\w+ )?(?:setting|settings|choice|preference|option)|expected:|expected (?:result|behaviou?r)|actual (?:result|behaviou?r)|steps to reproduce|snaps? (?:\w+ )?back|jumps? (?:\w+ )?back|typeerror|exception|stack ?trace|stays? (?:on|at) (?:the )?(?:\w+ )?(?:loader|spinner|loading)|had to (?:use|restart|reinstall|re-?enter|wait|call|contact|redo|retype|reload|refresh)|(?:saved|shown|displayed|exported|imported|rendered|stored|appears?|shows? up) as (?:question marks|gibberish|garbage|boxes|zeros?)|rejected|(?:created|sent|shown|showing|shows?|appears?|listed|counted|imported|posted|billed|duplicated|emailed|notified) (?:\w+ ){0,4}twice)\b/,
  // What the software does wrong, said flatly ("the export drops the last row").
  /\b(?:drops|dropped(?! (?:(?:it|them|him|her|me|us|(?:the|my|our) \w+) )?(?:off|at|in|into)\b| from\b)|skips|skipped|truncat\w*|cuts? off|ignores|resets|reverts|reverted|overwrites|overwritten|miscalculat\w*|off by (?:one|\d+)|mismatch\w*|incorrect\w*|inaccurate|garbled|corrupt\w*|times? out|timed out|timing out|spins? forever|(?:never|does not) (?:finish|finishes|load|loads|end|ends|complete|completes)|logs? (?:me|us|you) out|double[- ]count\w*|out of sync)\b/,
  // Judgements a lexicon scores weakly or not at all.
  /\b(?:unacceptable|waste of|wasted|misleading|misled|cheated|(?:felt |was |were |been )?(?:baited|tricked|duped|scammed|conned)|let down|harder|more difficult|not what (?:we|i) (?:paid|signed up) for|downhill|a mess|regret\w*|worse|slow|slower|so slow|painfully|even (?:slower|worse|buggier|harder|more (?:confusing|expensive|complicated|annoying))|cannot stand|can not stand|annoying|frustrat\w*|disappoint\w*|a joke|cannot believe (?:how|that|this|they|you|it|what))\b/,
  // Sarcasm idioms: praise words that mean the opposite.
  /\b(?:said nobody ever|said no one ever|just what i needed|is really something|whoever (?:decided|thought|designed|came up|approved)(?![^.]*\bdeserves?\b))\b/,
  /\bthanks? (?:you )?(?:a lot )?for (?:nothing|removing|breaking|deleting|ruining|the surprise|wasting|moving|hiding|changing (?:\w+ )?again)\b/,
];

/** Families of complaint forms (`complaintForms`), each counted like one problem pattern. */
const COMPLAINT_FORMS = [MISLED, WRONG_BEHAVIOUR, PRICE_RISE];

/** Weight 0.5, and only when nothing else was found: words that also appear in neutral reports and questions. */
const WEAK_PROBLEMS: RegExp[] = [
  BUG_FRAME,
  /\b(?:bugs?|issues?|problems?|errors?|failures?|missing|instead of|although|even though|(?:every|each) (?:single )?time)\b/,
  /\bsince (?:the (?:last |latest |new |recent )?(?:update|release|upgrade|redesign|migration|change)|version|yesterday|this morning|last (?:week|night|month)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/,
];

/**
 * Irony that turns the praise of the whole text around: praise words in scare quotes ("improved"
 * search), "Oh great", a best feature that is a way out, "when it works, which is rarely".
 */
const SARCASM = anyOf([
  /"(?:improved|new|quick|fast|smart|unlimited|free|premium|upgraded?|resolved|solved|done|working|update|fix|fixed|support|service|help|helpful|easy|simple|feature|improvement|secure|instant|priority|friendly|ad-free|hassle-free|all-inclusive|seamless|guaranteed|lifetime|real-time|24\/7)"/,
  // In single quotes only claims: 'New', 'Update' or 'Free' there are as often the labels of buttons and plans.
  /(?<![a-z])'(?:improved|quick|fast|smart|unlimited|premium|resolved|solved|working|fixed|helpful|easy|simple|feature|improvement|secure|instant|priority|friendly|ad-free|hassle-free|all-inclusive|seamless|guaranteed|lifetime|real-time|24\/7)'(?![a-z])/,
  /^oh,? (?:good|great|wonderful|brilliant|perfect|joy|nice|lovely|fantastic|cool|wow|yay)\b/,
  /^(?:oh )?(?:great|good|wonderful|brilliant|perfect|wow|thanks|fantastic|amazing|awesome|lovely|nice|excellent)\W+(?:\w+\s+){0,3}(?:another|again|only)\b/,
  /\bbest (?:feature|part|thing)\b.*\b(?:uninstall|spinner|loading|log ?out|exit|cancel|re-?enter|retyp|waiting|logg(?:ed|ing) (?:in|out))\w*/,
  // An interjection of praise over a relapse: "Awesome, the sync ate my notes again."
  /^(?:oh )?(?:great|good|wonderful|brilliant|perfect|wow|fantastic|amazing|awesome|lovely|nice|excellent|super)\W+.*\b(?:again|once more)\W*$/,
  /^(?:perfect|great|excellent|impeccable|brilliant) timing\b|^(?:well done|great job|nice job|good job|congrat\w*|bravo|kudos) (?:on|for) (?:making|breaking|removing|turning|hiding|managing|moving|changing)\b/,
  /\bwhich is (?:rarely|never|seldom|not often)\b/,
  // Loving what no one loves: "Love paying for loading spinners", "nothing like re-entering my password".
  /^(?:i |we |just |really |absolutely |gotta |got to )*(?:love|loving|adore|enjoy|nothing like|nothing beats|nothing says [\w ]+ like) (?:paying|waiting|getting (?:logged|charged|billed)|being (?:logged|charged|billed|told)|losing|having to|re-?\w+ing|spending|watching|staring|refreshing|retyping|starting over)\b/,
  /\bpaying (?:\w+ )?for (?:loading|spinners|bugs|downtime|errors|crashes|outages|a (?:loading|spinner|blank))\b/,
  // Praise opening a sentence whose rest says nothing happened: "Fantastic support: four emails, zero replies."
  /^(?:fantastic|great|amazing|excellent|wonderful|brilliant|stellar|superb|top-notch|outstanding) (?:\w+ ){0,2}(?:service|support|job|work|experience)\W+.*\b(?:zero|no|none|nobody|not a single|never)\b/,
  /^(?:oh )?(?:yay|woohoo|hooray)\b|^(?:brilliant|great|genius|wonderful|fantastic|nice|lovely|clever) (?:idea|move|decision|call|touch) to\b|^(?:nice|great|good|lovely|glad) to see\b.*\b(?:again|went up|gone up|removed|gone|broke|broken)\b|\bexactly what (?:everyone|everybody|we all|nobody|no one) (?:wanted|needed|asked for)\b|^nothing says [\w '"-]+ like\b|^(?:nice|good|great|kind|thoughtful|lovely|sweet|classy) of (?:you|them|him|her|the \w+) to (?:mention|tell|warn|let|inform|say|announce)\b.*\b(?:after|once|too late)\b|\btoo productive\b|\b(?:bugs|crashes|outages|downtime) (?:are|is) worth\b/,
]);

/** Praise idioms of reviews that a word lexicon scores as neutral, and praise words it does not know. */
const PRAISE =
  /\b(?:life ?saver|game ?changer|(?:five|5|six|6) stars|highly recommend\w*|recommended|would (?:buy|stay|come|order) again|exceeded (?:my |our |all )?expectations|worth every (?:penny|cent|dollar|euro)|(?:well )?worth (?:it|the (?:money|price|upgrade|wait))|does exactly what|exactly what (?:i|we) (?:needed|wanted|asked for|was looking for|were looking for|were missing|was missing)|exactly what (?:a|an|the) \w+(?: \w+)? should be|the one that stuck|should have (?:done|switched|upgraded|bought|started|moved) (?:it |this |that )?(?:months|years|weeks|long) (?:ago|before|earlier)|you get what you pay for|(?<!not |never |less |un)(?:solid|reliable|rock[- ]solid)|sav(?:e|es|ed|ing) (?:me|us) (?:a lot|hours|time|an hour|(?:an? |the )?(?:entire |whole |full )?(?:afternoon|morning|day|week))|makes? (?:my|our|their|his|her) (?:job|jobs|life|lives|work|day) (?:so |much |a lot |way )?(?:easier|simpler|better)|(?:cut|halved|reduced|slashed) (?:our |my |the |their )?(?:[\w-]+ ){0,3}(?:time|hours|effort|workload)(?: \w+)? (?:in half|by (?:half|\d+ ?%))|time(?:-to-[\w-]+)? (?:dropped|went down|fell|came down|is down) from|better than (?:anything|ever|any other)|(?<!not (?:so |very |that |really )?)(?:super |very |really |so )?easy to (?:use|set up|learn|navigate)|recommending (?:it|this|you|them) to|paid for (?:itself|the subscription)|(?:cannot|could not) imagine going back|shout-?out|(?:become|is|are) (?:now |absolutely |truly )?(?:essential|indispensable) (?:for|to) (?:us|me|our)|above and beyond|not looked back|never looked back|(?:it )?just works|(?:runs?|running|works?|working) smoothly|works like a charm|keep (?:it|up the (?:good|great) work)|(?:so |much )(?:easier|faster|smoother)|nailed|intuitive|painless|effortless\w*|seamless\w*|patient|clearly|stellar|snappy|polished|reference customer|looking forward to (?:it|using|the)|(?:everything|all) (?:i|we) (?:need|needed|wanted|could ask for)|the only one (?:we|i) (?:stuck with|kept|trust|still use))\b|(?<!(?:not|never|no longer|unlikely to|to) )\b(?:renewed|renewing|(?:will|happy to|glad to|decided to) renew) (?:for|our|the|again|another|with)\b|\b(?:upgraded|upgrading|moved up) (?:to|our|the|from)\b|^renewed\b|\b(?:signed|sign|signing) the renewal\b|(?<!(?:not|never|no longer) )\brenewing (?:and|for|our|the|with)\b|\b(?:buying|buy|purchas\w*|bought) (?:the )?(?:annual|yearly|enterprise|business|pro|team|paid) (?:plan|licen[cs]e|subscription|tier)|\bfrom the (?:free|trial|starter|basic) (?:tier|plan|version) to\b|\badd(?:ing)? (?:\d+|two|three|four|five|ten|twenty) more (?:seats|licen[cs]es|users)\b|\bexpanding (?:it )?to\b|\badditional (?:users|seats|licen[cs]es)\b|\b(?:added|adding|bought|buying|ordered) (?:\d+|another|more|extra) (?:more |extra )?(?:seats|licen[cs]es|users|accounts)\b|\b(?:expand\w*|extend\w*|roll\w* (?:it )?out) (?:to|across) (?:the |our |another |two |three |all )?(?:\w+ )?(?:team|teams|department|office|company|org|organization)s?\b/;

/**
 * Praise said as what the product did for the customer or as thanks to it, which the lexicon scores weakly:
 * "spot on", "credit goes to", "really appreciate that...", "love that I can...", "not looking back", "smoother
 * than any...", "set it up in 15 minutes", a count cut "by about a third" or "in half".
 */
const PRAISE_OF_OUTCOMES =
  /\b(?:spot on|credit (?:goes )?to (?:you|your|the)|hats off to|(?:really |truly |genuinely |so )?appreciate (?:that|how|the way|being able|the fact)|love (?:that|how|being able) (?:i|we|you|it|they|the|my|our|to)|(?:not|never) (?:looking|going) back|would (?:never|not) go back|(?:better|smoother|easier|faster|simpler) than (?:anything|ever|any)|(?:set (?:it|this|everything|us|them|the \w+) up|up and running|got started) in (?:under |about |just |only |less than )?(?:\d+|a few|five|ten|fifteen|twenty|two|three) (?:minutes|mins?)|(?:cut|halved|reduced|slashed|lowered) (?:[\w-]+ ){0,5}?(?:by (?:about |roughly |around |nearly |almost |more than |over )?(?:half|a third|a quarter|\d+ ?%)|in half))\b/;

/**
 * Praise said as what the customer will do or got: coming back ("will use again", "would book again", "would
 * recomend"), money or a day saved ("saved us nearly 300 euros", "saves my commute", "how much it saved us"), a chore
 * done in minutes ("picked up a car in 2 minutes"), what was wanted at last ("finally I can see..."), praise through a
 * word of fear or excess ("scarily accurate", "insanely fast"), the maker's reward ("deserves a raise"), expectations
 * beaten ("better than I expected", "surprisingly decent"), a harm spared ("saved me from running out"), a hard time made
 * easier, "finally an app that...", "cannot ask for more".
 */
const PRAISE_OF_RESULTS =
  /\b(?:(?:will|wil|would|shall) (?:definitely |certainly |happily |gladly |absolutely |100% )?(?:use|book|buy|stay|come|order|rent|shop|fly|travel|return|go|choose|pick) (?:\w+ ){0,2}?again|would (?:definitely |highly |totally |absolutely |100% )?(?:recomm?end|recommed)|sav(?:e|es|ed|ing) (?:me|us|them|him|her) (?:nearly |about |almost |over |more than |around |roughly )?(?:[$€£]\s?\d[\d,.]*|\d[\d,.]* ?(?:euros?|dollars?|pounds?|bucks|k)|a (?:fortune|bundle|small fortune)|money|hundreds|thousands)|sav(?:e|es|ed|ing) (?:my|our|their) (?:commute|day|days|life|lives|sanity|bacon|skin|weekends?|mornings?|evenings?|business|workflow|season)|how much (?:[\w-]+ ){0,3}(?:saved|helped|means|meant to) (?:us|me)|(?:picked up|booked|checked (?:in|out)|signed up|sorted|paid|ordered|onboarded|rebooked|renewed) (?:[\w-]+ ){0,4}?in (?:under |about |just |only |less than |barely )?(?:\d+|a few|two|three|five|ten) (?:minutes|mins?|seconds|secs?|clicks|taps)|finally (?:i|we|you|they) (?:can|could|have|get)|(?:scar(?:il)?y|insanely|ridiculously|stupidly|absurdly|freakishly|dangerously|crazy|unreasonably) (?:good|accurate|fast|quick|easy|smooth|simple|reliable|cheap|useful|addictive|well|precise|helpful)|deserves? (?:a |an )?(?:raise|medal|award|promotion|bonus|prize|pay rise)|(?:better|more) than (?:i|we) (?:had )?(?:expected|thought|hoped)|surprisingly (?:good|decent|easy|smooth|quick|fast|clear|useful|helpful|accurate)|(?:did not|never) (?:think|thought|expect|expected) (?:that|this|it) (?:was|would be) possible|sav(?:e|es|ed|ing) (?:me|us|them|him|her) (?:from|a|an) |(?:made|makes|making) (?:[\w-]+ ){1,5}?(?:far |much |a lot |so |way )?(?:less (?:stressful|painful|scary)|easier|calmer|simpler|smoother)|finall?y (?:an?|one) (?:[\w-]+ ){0,2}?(?:app|tool|service|site|platform|product) (?:that|where|which)|(?:cannot|could not) (?:ask|wish) for (?:more|better|anything more)|what more (?:could|can) (?:you|i|we|anyone) (?:ask|wish) for)\b/;

/**
 * Thanks to someone, or praise said as a sign-off ("just wanted to say thank you", "pass my thanks on to...", "thanks to
 * Ana in support", "grateful", "good work", "fair play", "not a complaint for once"): the verdict of a story of help.
 * "We would be grateful if..." only asks.
 */
const GRATITUDE =
  /\b(?:(?:just )?want(?:ed)? to say (?:a (?:big |huge |quick )?)?(?:thanks|thank you)|pass(?:ing)? (?:on )?(?:my|our) (?:thanks|gratitude)|(?:my|our) (?:thanks|gratitude) (?:go |goes )?to|(?:thanks|thank you|kudos|credit|props) to (?!you\b)\w+ (?:in|on|from|at|for|and|who)|(?<!\bbe (?:so |very |really |most |extremely )?)grateful(?! if)|good work|fair play|not a (?:problem report|complaint|bug report) for once)\b/;

/** Flat praise of a quality: "the sound is stunning", "it looks gorgeous". */
const FLAT_PRAISE =
  /\b(?:is|are|was|were|looks?|looked|sounds?|sounded|feels?|felt) (?:absolutely |simply |just |really |truly |so |incredibly )?(?:stunning|gorgeous|superb|flawless|phenomenal|outstanding|top-notch|excellent|fantastic|amazing|incredible|brilliant|beautiful|wonderful|fabulous|spectacular|impeccable)\b/;

/**
 * A problem that is denied ("no crashes", "without a hiccup") and praise by negation ("could not be
 * happier", "never disappoints") are praise; the lexicon reads the negated word and scores them negative.
 */
const NO_PROBLEM =
  /\b(?:no|zero|without an?y?|not an? single|not one|never had an?y?|never an?)\s+(?:\w+\s+)?(?:problems?|issues?|complaints?|crash\w*|hiccups?|bugs?|regrets?|glitch\w*|errors?(?! message)|downtime|(?:hidden )?fees?|surprises?|fuss|hassle|trouble|headaches?|escalations?)\b|\bnothing (?:to (?:complain|worry) about|wrong|bad)\b|\bcannot complain\b|\bwithout (?:being|feeling|getting|sounding) (?:too |overly )?\w+|\b(?:could not|cannot|could not have) be(?:en)? (?:happier|better|more pleased)\b|\b(?:cannot|could not) fault\b|\bnever (?:disappoints?|lets? (?:me|us) down)\b|\bnever (?:looked|been|felt|sounded|worked|run|ran|performed|played|read) (?:so |this )?(?:better|smoother|faster|easier|sharper|cleaner|nicer)\b|\bnot (?:once )?disappointed\b|\bcannot recomm?end (?:\w+ )?enough\b|\b(?:have not|has not|never) (?:once )?(?:missed|forgotten|lost) (?:a|an|one|any|a single)\b|\b(?:cannot|could not) (?:imagine |picture )?(?:\w+ ){1,4}?without (?:it|this|you|them)\b(?! \w+ing)/g;
/** A problem that is solved ("fixed on Tuesday", "thanks for the quick refund") or a cost that dropped is praise. */
const SOLVED =
  /\b(?:solved|resolved|fixed|sorted (?:it|that|this|everything) out|works (?:now|again|perfectly|great|like a charm)|no more|fix(?:es|ed)? (?:\w+ )?(?:fast|quickly|promptly|right away|in no time)|(?:replaced|repaired|exchanged|refunded|fixed) (?:my|the|our|a|it) (?:\w+ )?(?:broken|damaged|faulty|defective|cracked|wrong|duplicate|double|extra)|(?:beyond|offered|quickly|kindly|happily) to (?:replace|repair|exchange|refund) (?:my|the|our|a|it) (?:\w+ )?(?:broken|damaged|faulty|defective|cracked|wrong)?|replaced|(?:bills?|costs?|spend|fees|churn|no-shows?|errors|mistakes|complaints|tickets|wait times?|turnover) (?:have |has )?(?:dropped|fell|fallen|gone down|went down|decreased|halved)|(?<!\b(?:not|never|yet to|still)\b[^.]{0,15})(?:got|received|had) (?:my|our|the) (?:full )?refund|thanks? (?:you )?(?:so much )?for (?:fixing|solving|resolving|sorting|replacing|the (?:quick |fast |prompt )?(?:refund|fix|replacement)))\b/g;
const UNSOLVED =
  /\b(?:not|never|still)\s+(?:\w+\s+)?(?:solved|resolved|fixed|sorted)\b|\b(?:get|have|be|need|needs|want|wants) (?:it |this |that |them )?fixed\b|\bis there a fix\b/;

/**
 * A problem word naming a feature or a topic ("crash reports", "refund policy", "error messages in the importer",
 * "a log of failed imports"), or a customer's pause of the plan or a business's own state ("freeze my membership", "a
 * hiring freeze"): no frozen screen.
 */
const TOPIC =
  /\b(?:freeze|freezing|pause|pausing) (?:my|our|the|a|their) (?:\w+ )?(?:membership|subscription|plan|contract)\b|\b(?:hiring|budget|price|pricing|code|spending|recruitment|pay|headcount) freeze\b|\b(?:crash|error|bug|refund|duplicate|issue|failure|spam)s? (?:reports?|reporting|logs?|detection|button|policy|policies|process|rates?|handling|tracking|tracker|codes?|filter|folder|section|form|settings?)\b|(?<=\b(?:logs?|reports?|lists?|history|records?) )of (?:failed|broken|crashed|lost|deleted|duplicated?|rejected)\b/g;

/** The problems of this sentence are the customer's own or another product's ("my mistake", "the previous app"). */
const NOT_OUR_PROBLEM =
  /\b(?:my|our) (?:own )?(?:mistake|fault)\b|\bon (?:my|our) (?:side|end)\b|\baccidentally\b|\bby (?:accident|mistake)\b|\bnot (?:your|the (?:app|shop|site|company|service)'?s?) (?:doing|fault|problem|issue)\b|\b(?:i|we) will not be (?:able|around|available|reachable)\b|\b(?:previous|old|former|other) (?:app|tool|provider|vendor|system|platform|software|solution)\b/;

/** Words that are a verdict of "it is okay": the lexicon scores them as praise. */
const LUKEWARM =
  /^(?:\d{1,2} ?[-.:,] ?)?(?:it is |its |it was |that is |overall |all in all )?(?:roughly |about |pretty |fairly |just )?(?:fine|okay|ok|alright|decent|average|acceptable)\b|\b(?:fine for|okay for|does the job|as expected|some not so much|about what (?:i|we|you) (?:would |had )?expect(?:ed)?|(?:is|are|was|were) (?:just |pretty |fairly |mostly )?(?:fine|okay|ok|alright|average|decent|acceptable)(?=\W*$|, (?!but\b))|nothing special|nothing more|mid-range|you get (?:out of it )?what you put in|it is what it is|it works(?= i guess|\W*$)|(?:works|does the job) for what (?:we|i) need|nothing (?:amazing|great|terrible)|no strong (?:feelings|opinions?)|either way|could be better)\b|\bsome (?:\w+ )?(?:are|is) (?:good|great|fine|nice)\b.*\b(?:others?|some|the rest) (?:are not|need|could|is not)\b/;

/**
 * A verdict that weighs both sides and lands in the middle ("not the best, not the worst", "neither impressed nor
 * disappointed", "some days it is quick, some days it is slow", "middle of the road", "three stars", "some lessons are
 * better than others", "no complaints, but no praise either", "not leaving, just pausing"): a shrug in words the
 * lexicon reads as praise and complaint at once, so its problem words are not reported, nor its denials.
 */
const BALANCED =
  /\bneither (?:\w+ ){1,3}?nor \w+|\bnot (?:the |that |too |so |very |really )?(?:best|great|good|amazing|perfect|bad|terrible|awful|worst|horrible)\b(?: \w+){0,6},? (?:and |but |yet )?(?:not|nor) (?:the |that |too |so |very |really )?(?:worst|best|terrible|bad|awful|amazing|great|good|horrible)\b(?: either)?|\bsome (?:days|weeks|months|mornings|times|things|features|parts|bits)\b[^,.;]*[,;] (?:and |but |while |other )?(?:some|others?)\b[^,.;]*|\bmiddle of the road\b|\bbalances? (?:itself )?out\b|\b(?:would|will) not (?:rave|gush)\b|^(?:i am |we are |feeling |i feel )?neutral\b|\bneutral (?:on|about)\b|\bon the fence\b|\bso-so\b|^meh\b|\b(?:three|3)[- ]stars?\b|\b3 ?(?:\/|out of) ?5\b|\b(?:enough|an?) (?:\w+ )?opinion\b|\bsome (?:[\w-]+ ){1,2}(?:are|is|were|was|work|works|feel|feels) (?:\w+ )?(?:better|worse|stronger|weaker|more \w+|less \w+) than others\b|\bnot (?:leaving|cancell?ing|quitting|switching|churning|complaining|unhappy|angry|upset)\W+(?:just|only|simply)\b|\bno (?:\w+ ){0,2}(?:complaints?|incidents?|issues?|problems?)\b[^.;]*?\bno (?:\w+ ){0,2}(?:praise|enthusiasm|excitement|compliments?)\b(?: either)?/g;

/**
 * A notice of changed details or of an absence ("new point of contact", "is now the admin contact", "our new address",
 * "on parental leave until March", "I will be travelling without internet"), and the quiet account note ("usage
 * steady", "nothing raised", "no open tickets"): facts passed on, whatever words they use.
 */
const NOTICE =
  /\bnew (?:registered |billing |delivery |postal |office |email |main )?(?:address|point of contact|contact|phone number|email address|account holder|admin)\b|\b(?:is|are) now (?:the|our|their) (?:new )?(?:[\w-]+ )?(?:contact|admin|owner|account holder|point of contact|lead)\b|\b(?:is|am|are|will be) (?:away |off )?on (?:parental |maternity |paternity |annual |sick |medical )?leave\b|\b(?:i|we) will be (?:away|travell?ing|offline|out of (?:the )?(?:office|country))\b|\busage (?:is |has been )?(?:steady|flat|stable|unchanged)\b|\bnothing (?:raised|to report)\b|\bno open (?:tickets|issues|cases|requests)\b/;

/**
 * A note for information ("FYI, ...", "Noted, thanks", "Forwarding this to...", "in case it helps"): it passes
 * facts on and judges nothing, so, like a shrug, only a cue can make it a verdict. Not "Call notes: ...": account
 * notes carry the customer's verdict ("Call notes: customer very happy...").
 */
const FOR_INFORMATION = new RegExp(
  `^(?:fyi|for your information|for (?:the|your|our) records?|noted|(?:just )?(?:confirming|letting you know)|heads up|forwarding|reposting|for anyone (?:wondering|searching|deciding|else|looking)|just so (?:people|you|everyone|others) know)\\b|\\bin case (?:it|that|this) (?:helps|matters|is useful)\\b|${NOTICE.source}`,
);

/**
 * What might have happened ("Letting you know in case the failed-payment email went out") and what the customer lets go
 * ("the old address can be deleted"): no problem reported.
 */
const WHAT_MAY_HAPPEN =
  /\bin case\b[^,;:.!?]*|\b(?:can|could|should|may) (?:now )?be (?:deleted|removed|archived|closed)\b/g;

/** A question that is a complaint ("Why is it still...?", "How is it possible that...?"). */
const RHETORICAL =
  /^(?:why (?:is|are|was|were|does|do|did|can|cannot|will|would|has|have|should|must)|how come|how (?:hard|difficult|complicated) (?:can|could) it (?:possibly )?be|how is it possible|how is this|how many (?:more )?times|(?:is|does) anyone(?! (?:know|here|using|use|have (?:any )?(?:experience|tips|advice)|tried|aware))|is there anyone|what is the point|where is my|where are my|where did (?:the|my|our|it|they)|who (?:decided|thought|approved|designed|came up)|did (?:anyone|anybody|no one|you|nobody) (?:even |actually |ever )?(?:test|check|try|read|look|think))\b/;

/** A demand addressed to the company is a complaint even when it is phrased as a request. */
const DEMAND =
  /\b(?:is there (?:a|any) reason|any reason why|(?:look|looking) into why|(?:check|checking|explain|explaining|investigate|investigating|find out|tell (?:me|us)|asked|asks|asking|wondered|wants to know|wanted to know) why|any idea why|any (?:update|news|progress) on (?:the|my|our|this)|how much longer|when will (?:this|it|that|the \w+) (?:be fixed|work|be resolved|be back))\b|\b(?:please|kindly) (?:fix|refund|cancel|correct)\b|^fix\b|\b(?:correct|investigate) (?:this|it)\b|\bstop the (?:extra )?(?:billing|charges|charging)\b|\bfix (?:this|it)\b|\b(?:want|need|demand|expect) (?:a |my |our |the )?(?:full )?(?:refund|money back)\b|\brefund (?:me|us|my|our|the)\b|\bcancel (?:my|our)\b/;

/** "Would be great if it did not crash": a wish whose condition is the problem. */
const COUNTERFACTUAL = /\bif (?:it|they|you|only|the \w+) (?:did|does|would|was|were|could|had) not\b|\bif only\b/;

/** A sentence that asks, proposes or wishes as a whole: its sentiment words are not a judgement. */
const REQUEST_WHOLE =
  /^(?:(?:i am|we are) (?:formally |hereby |now )?(?:requesting|writing to (?:request|ask))|(?:the )?(?:customer|client|prospect|they|user|users) (?:asked|asks|wants|wanted|requested|would like|is asking|are asking)|(?:asked|asks|wants|wanted|requested) (?:for|a|an|to|the|if|whether)|(?:change|update|remove|delete|transfer|move|merge|rename|assign|reassign|address) (?:my|our|the|all|this|these|ownership)|set (?:my|our)|any plans?|are there plans|allow|add|make|enable|provide|offer|introduce|implement|bring back|show|display|give us|give me|let us|let me|support for|we need|we would like|i would like|it would|would (?:love|like|be)|could(?! not)|can|please|kindly|a way to|an? option to|the option to|the ability to|ability to|option to|idea|suggestion|request|feature (?:request|idea|suggestion|wish)|ideally|consider|happy to|glad to|just wondering|wondering|i wonder|not sure (?:if|whether|how|what))\b|\bplease\W*$|\bwould (?:also )?be (?:a |an )?(?:nice|great|helpful|useful|handy|good|cool|ideal|welcome)\b|\bit would help\b|^(?:we|i) would (?:love|like|appreciate) (?:a|an|to|some|it|the|if)\b|\bwould (?:love|like) to (?:see|have)\b|\bjust (?:wondering|a question|asking|curious)\b/;
/** A request inside a sentence that may also judge ("Great app, but please add a dark mode"). */
const REQUEST_WITHIN =
  /\b(?:could|can) you (?:please )?(?:add|make|support|include|consider|allow|let|extend|change|update|send|resend|remove|switch|enable)\b|\b(?:please|kindly) (?:add|consider|allow|let|make|support|include|change|update|send|resend|remove|switch|use|extend|close|transfer|deactivate|activate|rename|reassign|set up|merge|address|delete|note|confirm|forward|move|renew)\b|\b(?:can|could|should|may) (?:now )?be (?:deleted|removed|archived|closed)\b|\bone (?:small |tiny |little |minor )?(?:request|suggestion|wish)\b|\bi (?:only )?wish\b/;

export interface SentenceCues {
  /** Problems the customer reports (each kind of phrase counts 1, up to `MAX_PROBLEMS`). */
  problems: number;
  /** Problem words that also appear in neutral reports and questions ("issue", "since the update"): 0.5 each. */
  weakProblems: number;
  /** Denied or solved problems, and praise idioms. */
  reliefs: number;
  /** The sentence asks or proposes (a question, a feature request), so the problems it names are not reported. */
  request: boolean;
  /** The whole sentence is a question or request, so its sentiment words are not a judgement either. */
  requestOnly: boolean;
  /** The sentence ends with a question mark (a question may still complain without a cue: "Is it normal...?"). */
  question: boolean;
  /** Ironic praise: the praise of the whole text means the opposite. */
  sarcasm: boolean;
  /** The sentence says the product is merely okay, or only passes information on. */
  lukewarm: boolean;
  /** The sentence's negative words are denied ("no crashes", "could not be happier"). */
  denial: boolean;
  /** The sentence's negative words are about the customer's own mistake or another product. */
  notOurProblem: boolean;
  /** Leaving and committing (`decisionCues`): counted even in a request or a conceded clause. */
  decisions: DecisionCues;
  /** Praise opening a sentence about how something behaves ("Love how..."): ironic if the text reports a problem. */
  praiseOpener: boolean;
  /** Only a greeting or thanks ("Thanks in advance.", "Kind regards"): manners, not a verdict, beside other sentences. */
  courtesy: boolean;
  /** Thanks to someone or praise as a sign-off (`GRATITUDE`): the verdict of a story of help. */
  gratitude: boolean;
}

/** Contractions and texting spellings, spelled out in one pass. */
const CONTRACTION =
  /\b(?:can't|can not|won't|cant|wont|pls|plz)\b|n't\b|\b(?:is|are|was|were|do|does|did|has|have|had|could|would|should)nt\b|\b(it|that|this|there|i|we|you|they)'d\b|\b(it|that|this|there|what|here)'s\b|\b(?:i|we|you|they|it|that|there)'(ll|re|ve|m)\b/g;
const SPELLED: Record<string, string> = {
  "can't": 'cannot',
  'can not': 'cannot',
  cant: 'cannot',
  "won't": 'will not',
  wont: 'will not',
  pls: 'please',
  plz: 'please',
  "n't": ' not',
};
const SUFFIXES: Record<string, string> = { ll: ' will', re: ' are', ve: ' have', m: ' am' };
const QUOTE_OR_SPACE = /[’‘`“”]|\s+/g;

/**
 * Lower case, straight quotes, contractions spelled out ("can't" → "cannot", "doesn't" → "does not",
 * "it'd" → "it would", "it's" → "it is", "we'll" → "we will", "we're" → "we are"), and the texting "pls" → "please".
 */
export function normalizeSentence(text: string): string {
  return text
    .toLowerCase()
    .replace(QUOTE_OR_SPACE, (c) => (c === '“' || c === '”' ? '"' : c.trim() === '' ? ' ' : "'"))
    .replace(CONTRACTION, (m: string, would?: string, is?: string, suffix?: string) =>
      would
        ? `${would} would`
        : is
          ? `${is} is`
          : suffix
            ? `${m.slice(0, -suffix.length - 1)}${SUFFIXES[suffix]}`
            : (SPELLED[m] ?? `${m.slice(0, -2)} not`),
    )
    .trim();
}

/**
 * Greetings, thanks and the patience of a request ("No rush, any time this month is fine", "a written answer is
 * fine"), alone or one after another: manners, not a verdict.
 */
const COURTESY_PART =
  '(?:hi|hello|hey|dear \\w+|(?:many |a lot of )?thanks?(?: you)?(?: (?:so much|a lot|very much))?(?: in advance)?|thx|cheers|(?:kind |best |warm )?regards|have a (?:nice|good|great) (?:day|weekend)|no (?:rush|hurry)|take your time|whenever you (?:can|get a chance|have (?:a moment|time))|(?:any ?time|whenever|either|(?:an? |the )?(?:[\\w-]+ )?(?:answer|reply|response|email|call|update)) (?:[\\w-]+ ){0,3}?(?:is|works|would be) (?:fine|ok|okay))';
const COURTESY = new RegExp(`^${COURTESY_PART}(?:\\W+${COURTESY_PART})*\\W*$`);

/** One scan instead of one per pattern: most sentences report no problem. */
const ANY_PROBLEM = anyOf(PROBLEMS);

/** At most this many problems of one sentence count; finding more would not change its score. */
export const MAX_PROBLEMS = 2;

/** A question about what would happen ("What happens to our data if we downgrade?") decides nothing. */
const HYPOTHETICAL =
  /\bif (?:i|we|you|they|our|my|the)\b|\bwhat happens\b|\bis it possible\b|\bwould (?:i|we) (?:be able|need|have)\b/;

/** The sentence's decisions; a commitment beside a problem is the story of a complaint ("We upgraded because sales promised..."). */
function decidedHere(sentence: string, question: boolean, problems: number): DecisionCues {
  if (question && HYPOTHETICAL.test(sentence)) return { leaving: 0, committing: 0 };
  const decided = decisionCues(sentence);
  return problems > 0 ? { ...decided, committing: 0 } : decided;
}

/** A question typed without its question mark ("how do i export one board to csv", "whats the difference between..."). */
const UNMARKED_QUESTION =
  /^(?:how (?:do|can|does|would|to)|what(?:s| is| are| does)|where (?:is|are|do|can)|is there|are there|can (?:i|we|you)|do (?:you|i|we)|does (?:it|the|this))\b[^.!?]*$/;

export function sentenceCues(sentence: string): SentenceCues {
  const question = (sentence.endsWith('?') && !/[?!]{2,}$/.test(sentence)) || UNMARKED_QUESTION.test(sentence);
  const rhetorical = RHETORICAL.test(sentence) || (question && COMPLAINING_QUESTION.test(sentence));
  const demand = COUNTERFACTUAL.test(sentence) || DEMAND.test(sentence);
  const whole = question || REQUEST_WHOLE.test(sentence);
  // "Please pass on our thanks" asks only in form.
  const request = !rhetorical && !demand && !GRATITUDE.test(sentence) && (whole || REQUEST_WITHIN.test(sentence));
  // Remove denied and solved problems, topic words and what only might have happened first so that "no crashes" is
  // not counted as a crash; a balance before them, so that its "no complaints" is no denial.
  const unsolved = UNSOLVED.test(sentence);
  let denials = 0;
  let solved = 0;
  let balanced = false;
  let rest = sentence
    .replace(BALANCED, () => {
      balanced = true;
      return ' ';
    })
    .replace(NO_PROBLEM, () => {
      denials += 1;
      return ' ';
    })
    .replace(TOPIC, ' ')
    .replace(WHAT_MAY_HAPPEN, ' ');
  if (!unsolved)
    rest = rest.replace(SOLVED, () => {
      solved = 1;
      return ' ';
    });
  const rating = ratingCue(sentence);
  const gratitude = GRATITUDE.test(rest);
  const praised = gratitude || PRAISE.test(rest) || PRAISE_OF_OUTCOMES.test(rest) || PRAISE_OF_RESULTS.test(rest);
  let reliefs = denials + solved + (praised ? 1 : 0) + (rating > 0 ? 1 : 0);
  const sarcasm = SARCASM.test(sentence) || IRONY.test(sentence) || REPORTED_IRONY.test(sentence);
  let problems = (rhetorical ? 1 : 0) + (demand || unsolved ? 1 : 0) + (sarcasm ? 1 : 0) + (rating < 0 ? 1 : 0);
  for (const pattern of COMPLAINT_FORMS) if (problems < MAX_PROBLEMS && pattern.test(rest)) problems += 1;
  if (ANY_PROBLEM.test(rest))
    for (let i = 0; i < PROBLEMS.length && problems < MAX_PROBLEMS; i++) if (PROBLEMS[i].test(rest)) problems += 1;
  // Flat praise beside a problem may be the set-up of the complaint ("The new layout is gorgeous, and it hides...").
  if (!praised && problems === 0 && FLAT_PRAISE.test(rest)) reliefs += 1;
  let weakProblems = 0;
  if (problems === 0 && reliefs === 0) for (const pattern of WEAK_PROBLEMS) if (pattern.test(rest)) weakProblems += 0.5;
  return {
    problems,
    weakProblems,
    reliefs,
    request,
    requestOnly: request && whole,
    question,
    sarcasm,
    lukewarm: balanced || LUKEWARM.test(sentence) || FOR_INFORMATION.test(sentence),
    denial: denials > 0,
    notOurProblem: NOT_OUR_PROBLEM.test(sentence),
    decisions: decidedHere(sentence, question, problems),
    praiseOpener: PRAISE_OPENER.test(sentence),
    courtesy: COURTESY.test(sentence),
    gratitude,
  };
}
