/**
 * Decisions about the account: leaving (churn said calmly, cancellations, fewer seats) and committing
 * (renewals, upgrades, more seats). They decide a text's sentiment even when it is worded as a request
 * ("Please cancel our plan", "Please add 10 more licences") or conceded in a "but" clause, so they are
 * counted apart from the other cues, which a request or a concession damps. Each pattern is a family of
 * phrasings on a sentence normalized by `normalizeSentence` (lower case, contractions spelled out).
 */

/** What a customer weighs against the product: competitors, other tools, "options". */
const OTHER_OPTIONS =
  '(?:our )?(?:options|alternatives?|an? replacement|competitors?|competing (?:tools?|products?|vendors?|offers?)|(?:other|different|new|replacement|alternative) (?:[\\w-]+ )?(?:tools?|options|vendors?|providers?|solutions?|platforms?|products?|apps?|software|systems?)|something (?:else|cheaper|simpler)|what else is (?:out there|available|on the market)|another (?:tool|vendor|provider|solution|platform|product|app))';

const LEAVING: RegExp[] = [
  // Evaluating a way out, present or future: "weighing our options", "getting quotes from competitors".
  new RegExp(
    `\\b(?:weigh\\w*|explor\\w*|evaluat\\w*|compar\\w*|looking (?:at|into|around for|for)|look (?:at|into|around for|for)|consider\\w*|reviewing|trialing|trialling|testing|piloting|talking to|talk to|shopping (?:around )?for|get(?:ting)? quotes from|quotes from|(?:open|opened) to)\\s+(?:\\w+\\s+){0,3}?${OTHER_OPTIONS}\\b`,
  ),
  // Leaving verbs with what is left: "phasing the tool out", "consolidate on Planner", "replace you", "moved the team to
  // another password manager"; deciding "whether to keep" it; "leaving because..."
  /\b(?:phas\w* (?:\w+ ){0,4}out|sunset\w* (?:the|this|your)|consolidat\w* (?:on|onto|into|with)|replac\w* (?:you|your (?:tool|product|app|service|platform|software))|(?:mov|migrat|switch)\w* (?:away|off) (?:from )?|(?:mov|migrat|switch|tak)\w* (?:\w+ ){0,2}off (?:the |your |this )?(?:platform|tool|product|app|service)|outgrown (?:it|you|the)|\b(?:we are|we will be|we have been|we have started|we started|we began|we are in the process of) (?:migrating|transitioning)\b(?! (?:\w+ ){0,3}(?:to|onto) (?:the |your )?(?:annual|yearly|business|enterprise|pro|premium|plus|professional|higher|paid|new (?:plan|tier|version)))|champion (?:has )?(?:left|departed|is leaving)|(?:mov|migrat|switch|transferr?)\w* (?:\w+ ){0,3}to (?:another|a different|a competing|a cheaper) (?:[\w-]+ ){0,2}(?:provider|vendor|tool|app|platform|service|solution|product|system|software)\b|(?:moved|switched|migrated|moving|switching|migrating) (?:the |our |my )?(?:whole )?(?:team|company|staff|everyone|data|accounts?|users) (?:over )?to (?:another|a different|a competing|a cheaper)\b(?! (?:team|department|plan|tier)\b)|(?:evaluat|decid|debat|consider|discuss|review)\w* whether (?:to|we should|we will|we want to) (?:keep|renew|stay|continue)\b|^(?:we are |i am )?leaving (?:because|since|after|as)\b|take (?:our|my) business elsewhere|(?:look|go)\w* elsewhere|churn\w*|(?:thinking (?:of|about)|considering|plan(?:ning)? to|going to|decided to|will|about to) leav(?:e|ing)|leav\w* (?:you|your (?:tool|product|app|service|platform))\b)/,
  // Not staying: "won't be extending", "not sure we will still be customers", "this will be our last year".
  /\b(?:not|never|no longer|unlikely to) (?:be )?(?:\w+ )?(?:auto-?)?(?:renew|extend|continu|stay)\w*|\bnot sure (?:we|i|the team|they) (?:will|would|can|are going to|want to) (?:still |keep |continue|renew|stay|justify)|\b(?:hard|difficult|harder|impossible) to justify\b|\bbe our last (?:term|year|renewal|contract|cycle|month)\b|\blast (?:term|year|renewal|contract) with (?:you|your)\b/,
  /\b(?:renewal|contract|subscription|account|budget for (?:this|the tool|you)) (?:is |are |has been |was )?(?:now )?(?:under review|on hold|at risk|in question|in doubt|up in the air|being reviewed|being questioned)\b|\b(?:flagged|questioned|questioning|challenged) (?:the |our |this )?(?:renewal|contract|subscription|spend)\b/,
  // Cancelling the account or part of it.
  /\bcancel\w* (?:\w+ ){0,2}(?:subscription|account|plan|contract|membership|renewal|seats?|licen[cs]es?|trial|auto-?renew\w*|premium|pro plan|business plan|enterprise plan|everything)\b|\b(?:turn\w* off|disabl\w*|stop\w*|switch\w* off) (?:the |our |my )?auto-?renew\w*|\b(?:close|delete|terminate|end)\w* (?:my|our) (?:\w+ )?(?:account|subscription|contract|agreement|membership|workspace|organi[sz]ation|tenant)\b|\b(?:exit|termination|early termination) (?:terms|clause|options)\b|\bunsubscrib\w*|\bdowngrad\w*|^cancell?ed\b|\bconsolidat\w* (?:\w+ ){0,2}(?:tools|vendors|software|stack|subscriptions)\b|\bon the (?:\w+ )?list (?:to go|to be cut|of (?:cuts|tools to cut))\b|\b(?:will not|probably will not|not going to) be (?:yours|you)\b|\bfound (?:something|another|a better|an alternative|a cheaper|an? (?:app|tool|vendor|provider|product|solution|platform|service) that)\b|\bswitching (?:this|next|at the end of (?:the|this)) (?:week|month|quarter|year)\b/,
  // Moving out, said as a plan or as what is already being done beside the product.
  /\b(?:(?:plan|planning|going|decided|want|wants|intend\w*) to|will|would|likely|probably) (?:move|switch|migrate)\b(?= (?:\w+ ){0,3}?(?:away|off|out|before|from|elsewhere|there)\b)|\bmigrat\w* (?:\w+ ){0,3}out of\b|\b(?:testing|trialing|trialling|running|piloting|evaluating|using) (?:\w+ ){1,4}in parallel\b|\b(?:cannot|could not|can not|no longer|could no longer) justify\b|\bnon-?renewal\b|\bnotice of (?:termination|cancellation)\b|\b(?:went|gone|going|bringing (?:it|this)|brought (?:it|this)|moved|moving) in-house\b|\bbuil(?:t|d|ding) (?:our|their) own\b|\b(?:will not|do not|did not|no longer) (?:really |even )?need (?:it|you|this|them|the (?:[\w-]+ )?(?:tool|app|product|service|platform|software|plan|tier|seats|licen[cs]es|add-?on|subscription))\b(?=.*\b(?:anymore|any more|any longer|next (?:year|month|quarter|term)|after (?:the|this|our)|from (?:next|the end))\b)|\b(?:went|gone|going|switched|moved|reverted) back to (?:\w+ ){0,2}(?:spreadsheets?|excel|paper|email|pen and paper|manual)\b/,
  /\b(?:reduc\w*|cut\w*|lower\w*|decreas\w*|scal\w* (?:back|down)) (?:\w+ ){0,4}?(?:seats|licen[cs]es|users|accounts|plan|subscription|spend)\b|\bremov\w* (?:the |our |my |these |those |all )?(?:\d+ )?(?:[\w-]+ ){0,2}(?:add-?ons?|modules?|seats|licen[cs]es)\b/,
  // The tool is not used enough to pay for: the reason behind most cancellations.
  /\b(?:not (?:really |even )?(?:using|use) (?:it|them|the \w+|this)(?: (?:enough|much|anymore|any more))?|(?:barely|rarely|hardly|no longer) (?:\w+ )?us(?:e|es|ing|ed)\b|do not use (?:it|them) enough|(?:low|poor|dropping|declining) (?:usage|adoption)|(?:usage|adoption|logins|activity|engagement) (?:is |has |was )?(?:down|dropped|declined|fallen|fell|falling))/,
  // Churn said calmly, as a choice already made or a comparison under way: "decided to go with a different app", "plan
  // to switch apps", "comparing us with a cheaper provider", "on a competitor trial", "jumping ship", "moved everything
  // to plain files", "done with this app", moving to a broker or to someone's own app, "unless we can match the price".
  /\b(?:go|going|gone|went) with (?:a different|another|a competing|a cheaper|a rival)\b|\b(?:switch|chang)\w* (?:apps|providers|vendors|tools|platforms|suppliers|banks|insurers)\b|\bcompar\w* us (?:with|to|against)\b|\b(?:on |with )?(?:a |the )?competitor(?:'s)? (?:trial|pilot|offer|quote)\b|\bjump\w* ship\b|\b(?:mov|migrat|switch|transferr?)\w* (?:ever(?:y)?thing|all (?:of )?(?:our|my|the) [\w-]+) (?:over )?(?:to|onto) (?!(?:the |our |your )?(?:new|next|latest|same|annual|yearly|pro|premium|business|enterprise)\b)|\b(?:i am|im|we are) (?:so |completely |totally )?done with (?:this|the|your|you)\b|\b(?:mov|switch|migrat|transferr?|go|went|gone)\w* (?:[\w-]+ ){0,6}?(?:back )?(?:to|onto) (?:a |an |the |their |our |my )?(?:[\w'-]+ ){0,3}?(?:own (?:app|website|site|portal|tool|system|platform|service)|broker|competitor|rival)\b|\bunless (?:we|you) (?:can )?match\b/,
];

/** Renewals, upgrades and more seats; a negation or a past problem ("since the upgrade") is not one. */
const COMMITTING: RegExp[] = [
  /(?<!(?:not|never|no longer|unlikely to|before|until|after|since) )\b(?:renewed|(?:will|happy to|glad to|decided to|going to|plan to|planning to|ready to|about to|just|have|has) renew)\b|(?<!(?:not|never|no longer) )\brenewing (?:and|for|our|the|with|again|today)\b|\bsign\w* (?:\w+ ){0,3}renewal\b|\brenewal (?:is |was |has been )?(?:signed|done|confirmed|approved|through|processed)\b/,
  /\b(?:upgrad\w*|mov\w*|switch\w*|go|going|convert\w*) (?:us |me |our (?:\w+ ){0,3}|the (?:whole )?(?:\w+ ){0,2}|everyone |everybody )?to (?:the )?(?:annual|yearly|business|enterprise|pro|premium|plus|professional|higher|paid|bigger|larger|growth|scale|unlimited|full (?:seats|licen[cs]es|accounts|users))\b|\b(?:will|going to|plan to|planning to|decided to|want to|would like to|ready to|about to|just|have|has) upgrad\w*|^upgrad(?:ed|ing)\b|\bupgrade (?:us|me|our)\b|\b(?:go\w*|mov\w*|bump\w*) (?:\w+ ){0,2}up (?:to (?:the )?(?:\w+ )?(?:tier|plan|edition)|so)\b|\b(?:make|making|made) it (?:the|our) (?:standard|default|official|main)\b|\b(?:is|are|became|become|has become) (?:now )?(?:the|our|their) (?:standard|default|official|go-to|main|primary) (?:for|across|in)\b|\b(?:convinced|persuaded|got) (?:\w+ ){0,4}to (?:sign up|join|buy|subscribe)\b/,
  /(?<!(?:not|never|no longer|unlikely to|stop|stopped) )\bextend\w* (?:the |our |my )?(?:contract|subscription|agreement|licen[cs]es?|plan|partnership)\b|\b(?:we are|we will be|i am) (?:clearly |definitely |certainly |happily )?staying\b|\bfrom monthly to (?:annual|yearly)\b|\b(?:buy|buying|bought|purchas\w*|order\w*|activat\w*) the (?:[\w-]+ ){0,3}(?:add-?on|module|package|tier|licen[cs]e|bundle)\b|\b(?:add|adding|added|enabl\w*|turn\w* on) the (?:[\w-]+ ){0,3}(?:add-?on\b|module (?:to|for|on) (?:our|my) (?:account|plan|subscription|workspace))|\b(?:\d+|two|three|four|five|six|ten|twenty|fifty) (?:more|extra|additional) (?:seats|licen[cs]es)\b/,
  /\b(?:add\w*|buy\w*|bought|purchas\w*|order\w*|need|want|get\w*|onboard\w*) (?:\w+ ){0,2}?(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|a hundred|more|extra|additional|another \d+) (?:more |extra |additional |new )?(?:seats|licen[cs]es)|(?:more|extra|additional|another \d+|(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|a hundred) (?:more|extra|additional|new)) (?:users|editors|members))\b|\b(?:doubl|tripl)\w* (?:our|the) (?:seats|licen[cs]es|users|plan|subscription|contract)\b|\b(?:expand|extend|roll)\w* (?:it |us |out )?(?:\w+ ){0,3}?(?:to|across) (?:the |our |their |another |a |two |three |all )?(?:\w+ ){0,2}(?:team|teams|department|departments|office|offices|region|company|org|organization|division|business units?|employees|staff|people|users)\b/,
];

COMMITTING.push(
  // A deal being signed or paid for, and usage growing: what account notes say of an expansion.
  /\b(?:po|purchase order) (?:#?[\w-]+ )?(?:(?:will be|is being|to be|was|has been) )?(?:issued|raised|sent|approved|signed|received)\b|\bcontract (?:is )?out for signature\b|\bverbal (?:yes|commitment|go-ahead)\b|\b(?:\d+|two|three|four|five|multi)-year (?:deal|contract|agreement|commitment|renewal)\b|\buplift\b|(?<!(?:cpu|memory|battery|disk|data|ram|storage|bandwidth) )\b(?:usage|adoption|seats|users|logins|activity|engagement) (?:is |are |has |have )?(?:up|grew|grown|growing|increased|doubled|tripled)\b(?! to\b)|\b(?:new|another|second|third) (?:location|branch|office|site|clinic|store|entity|workspace|team) (?:under|to|on) (?:our|the) (?:existing )?account\b/,
  // A purchase order sent with the text: "Purchase order 4471-B for 200 seats is attached" (a signed order form alone
  // may be paperwork of a renewal already counted: one author reads it as neutral).
  /\b(?:po|purchase order)\b[^,;]*\b(?:is |are )?(?:attached|enclosed)\b|\b(?:attached|enclosed|attaching) (?:is |are )?(?:the |our |a )?(?:signed )?(?:po|purchase order)\b/,
  // Renewing said as an intention or a wish: "confirming our intention to renew", "they want to renew early", "we would
  // like to continue on the same plan"; billing moved to a year.
  /(?<!(?:not|never|no longer|unlikely to|before|until|whether to|if we) )\b(?:intention to|intend to|intends to|want to|wants to|would like to|agreed to|agree to|committed to|expect to|expects to) (?:renew\b|continue (?:on|with|using)\b|stay (?:on|with)\b)|\b(?:and|please|kindly|to) (?:bill|invoice|charge) (?:us |me |it )?(?:annually|yearly)\b/,
  // More of the product for more of the business: "add two more stores", "three additional locations", "a pilot converted into a full licence".
  /\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|a hundred) (?:more|extra|additional) (?:[\w-]+ ){0,2}?(?:seats|licen[cs]es|users|stores|locations|sites|clinics|branches|offices|depots|warehouses|facilities|teams|departments|workspaces|accounts|drivers|learners|agents|domains|mailboxes|vehicles|properties|venues|devices)\b|\bconvert\w* (?:our |the |this |my )?(?:pilot|trial|poc|proof of concept|free (?:plan|tier|account)) (?:in)?to (?:a |the )?(?:full|paid|annual|yearly|production|enterprise)\b|\bupgrade (?:my|the|our) (?:[\w-]+ ){0,2}from\b|\b(?:upgrad|mov|switch|go)\w* (?:\w+ ){0,2}from (?:the )?(?:free|trial|starter|basic|lite|standard|essentials?|team|growth) (?:plan |tier )?to (?:the )?(?:pro|professional|business|enterprise|premium|scale|plus|unlimited|growth|team)\b/,
  // Commitments said flatly or asked for: "upsold to Pro", "went annual", "resubscribed", "please renew our policy",
  // "agreed to extend the contract", "add the new branch to our contract", "upgrade my account to Premium", "expanding
  // monitoring to the remaining sites".
  /\b(?:upsold|upsell\w*|resubscrib\w*|re-subscrib\w*)\b|\b(?:went|gone|going|switched|moved) annual\b|\bplease renew\b|(?<!(?:not|never) )\brenewe?d (?:my|our) (?:[\w-]+ )?(?:subscription|plan|policy|contract|membership|cover|licen[cs]e)\b|\bagree(?:d|s)? to (?:extend|renew|expand|upgrade)\b|(?<!\b(?:i|we|you) )\badd (?:[\w-]+ ){1,4}to (?:our|my|the) (?:[\w-]+ )?(?:contract|membership|plan|subscription|licen[cs]e)\b|\bupgrade (?:my|our) (?:account|plan|subscription|membership)\b|\bexpand\w* (?:[\w-]+ ){0,2}to (?:the )?(?:remaining|rest of|other|all)\b/,
);

/** "from 50 seats to 20": fewer is leaving, more is committing, whatever the verb. */
const SEAT_CHANGE = /\bfrom (\d+) (?:seats |licen[cs]es |users )?(?:down |up )?to (\d+) (?:seats|licen[cs]es|users)\b/;
/** "renewing at 120 seats (up from 85)": the same change told the other way round. */
const SEAT_CHANGE_AFTER = /\b(\d+) (?:seats|licen[cs]es|users)\W{1,3}(?:up|down) from (\d+)\b/;

export interface DecisionCues {
  /** Phrasings of leaving, each family once. */
  leaving: number;
  /** Phrasings of committing, each family once. */
  committing: number;
}

export function decisionCues(sentence: string): DecisionCues {
  let leaving = LEAVING.filter((pattern) => pattern.test(sentence)).length;
  let committing = COMMITTING.filter((pattern) => pattern.test(sentence)).length;
  const before = SEAT_CHANGE.exec(sentence);
  const after = before ? null : SEAT_CHANGE_AFTER.exec(sentence);
  const [from, to] = before ? [before[1], before[2]] : after ? [after[2], after[1]] : [];
  if (from !== undefined) {
    if (Number(from) > Number(to)) leaving += 1;
    else committing += 1;
  }
  // Leaving wins: "downgrade to the Team plan" names a plan as upgrades do.
  return { leaving, committing: leaving > 0 ? 0 : committing };
}
