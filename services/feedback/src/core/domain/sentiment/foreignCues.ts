/**
 * Feedback phrases of the languages other than English that the service reads, on lower-case text
 * without accents: what nlp.js's general lexicons miss ("kündigen", "remboursement", "no funciona" carry
 * no sentiment word). Each language lists the same kinds of phrases as the English cues: something does
 * not work, the customer is leaving or wants money back, is still waiting; and praise, renewal, a fix.
 */
export interface LanguageCues {
  problems: RegExp[];
  praise: RegExp[];
  /** A renewal, an upgrade, a bigger plan: praise even when asked for ("Bitte auf Business upgraden"). */
  commitment: RegExp;
  /** The word that opens a verdict after a concession ("Etwas teuer, aber ..."), on lower-case text with its accents. */
  but: RegExp;
  /** Praise that mocks: a praise word opening a text about the same nuisance again ("Super, schon wieder..."). */
  sarcasm: RegExp;
  /** A request, suggestion or account change: its courtesy words ("merci d'ajouter") are no praise. */
  request: RegExp;
  /** "It is okay", or only an acknowledgement ("Recibida la factura, gracias"): the lexicon reads it as praise. */
  lukewarm: RegExp;
  /** Negations before a praise word turn it into a complaint ("nicht zufrieden"). */
  negation: RegExp;
  /** A question that is a complaint ("Warum ... immer noch ...?"). */
  rhetorical: RegExp;
}

export const FOREIGN_CUES: Record<'de' | 'fr' | 'es' | 'pt' | 'nl' | 'it', LanguageCues> = {
  de: {
    problems: [
      /\b(?:zu spat|verspat\w*|doppelt|zweimal|getauscht|zugesagt|versprochen|immer noch|nach wie vor|konto (?:loschen|schliessen)|vertrag (?:endet|lauft aus)|downgrade|herabstuf\w*)\b/,
      /\b(?:funktioniert|geht|klappt|lauft|ladt|oeffnet|offnet|synchronisiert|startet)\s+(?:\w+\s+)?(?:nicht|nie|kaum)\b/,
      /\b(?:falsch\w*|leer\w*|schliesst sich|schon wieder|storung\w*|ausfall\w*|absturz\w*|sturzt\w*|abgesturzt|fehler\w*|kaputt|defekt|hangt|friert|langsam|trage|unbrauchbar|katastroph\w*|mangelhaft|schlecht\w*|schlimm\w*)\b/,
      /\b(?:kundig\w*|gekundigt|erstattung|ruckerstattung|geld zuruck|storn\w*|abbestell\w*|doppelt (?:abgebucht|berechnet)|zu teuer|uberteuert)\b/,
      /\b(?:enttausch\w*|argerlich|argert|frustrier\w*|nervig|unzufrieden|inakzeptabel|unverschamt|leider|irrefuhrend|betrug)\b/,
      /\b(?:immer noch (?:nicht|kein\w*)|noch immer (?:nicht|kein\w*)|seit (?:tagen|wochen|monaten)|keine (?:antwort|ruckmeldung|reaktion)|nicht erreichbar|warte\w*)\b/,
      /\b(?:wechseln zu|zur konkurrenz|anderen anbieter|alternative\w*|test(?:en|phase) (?:eines|einer) ander\w*)\b/,
      // Churn said calmly: the renewal in doubt, usage gone, the budget elsewhere, another tool tried alongside.
      /\b(?:verlangerung (?:ist |wird |scheint )?(?:\w+ )?(?:fraglich|unsicher|gefahrdet|offen|unwahrscheinlich)|(?:nicht|kaum|keine?) (?:\w+ ){0,2}verlanger\w*|kaum noch|niemand mehr|budget (?:geht|fliesst|wandert|wurde \w+)|parallel (?:ein|eine|einen) ander\w*)\b/,
    ],
    commitment:
      /\b(?:upgrade\w*|verlanger\w*|erweiter\w* (?:auf|um)|(?:tarif|plan|paket) (?:wechseln|hochstufen)|auf (?:den |das )?(?:business|pro|premium|enterprise|jahres)\S*)/,
    but: /,\s*(?:aber|jedoch|doch)\s+/,
    praise: [
      /\b(?:endlich|grossartig|klare empfehlung|nicht mehr (?:ohne|missen))\b/,
      /\b(?:danke\w*|vielen dank|stabil|gefallt|gefallen|einfach zu bedienen|super|toll\w*|prima|hervorragend|ausgezeichnet|begeistert|empfehle\w*|empfehlenswert|zufrieden|gelost|(?:das |sein |jeden )(?:geld|cent|euro) (?:\w+ ){0,2}wert|behoben|perfekt|klasse|genial|spitze|fantastisch|grossartig|lieben)\b/,
    ],
    sarcasm:
      /^(?:super|toll|klasse|prima|genial|wunderbar|herrlich|danke)\b.{0,60}\b(?:schon wieder|wieder|noch ein|erneut)\b|\bdanke auch\b/,
    request: /\b(?:bitte|konnten sie|konnt ihr|ware (?:schon|toll|super|gut|praktisch)|vorschlag|wunsch|moglichkeit)\b/,
    lukewarm:
      /\b(?:ganz okay|ganz ok|geht so|in ordnung|nichts besonderes|solide|durchschnittlich)\b|^(?:\w+ )?(?:erhalten|angekommen)\b/,
    negation: /\b(?:nicht|nie|kein\w*)\s+(?:\w+\s+)?(?:zufrieden|gut|toll|super|empfehlenswert|perfekt)\b/,
    rhetorical: /^(?:warum|wieso|weshalb|wie lange|wo (?:ist|sind|bleibt|bleiben) (?:mein|meine|unser|unsere))\b/,
  },
  fr: {
    problems: [
      /\b(?:en retard|retard|en double|deux fois|trompe\w*|promis|toujours|evalu\w* d'autres|contrat se termine|supprimer (?:mon|notre) compte|fermer (?:mon|notre) compte|downgrade|pass\w* (?:a|au) (?:l'offre|plan|forfait) inferieur)\b/,
      /\b(?:ne|n')\s*(?:\w+\s+)?(?:fonctionne|marche|charge|s'ouvre|synchronise|demarre|repond)\w*\s+(?:pas|plus|jamais)\b/,
      /\b(?:faux|fausse\w*|errone\w*|incorrect\w*|vide\w*|se ferme\w*|encore une fois|plante\w*|crash\w*|bug\w*|bogue\w*|erreur\w*|panne|casse|lent\w*|inutilisable|catastroph\w*|nul(?:le)?|mauvais\w*|horrible|bloque\w*)\b/,
      /\b(?:resili\w*|annul\w* (?:mon|notre|l')\s*abonnement|remboursement|rembourse\w*|factur\w* deux fois|debite\w* deux fois|trop cher|hors de prix)\b/,
      /\b(?:decu\w*|decevant\w*|deception|frustr\w*|agac\w*|enerv\w*|insatisfait\w*|inacceptable|malheureusement|trompe\w*|arnaque)\b/,
      /\b(?:toujours pas|toujours aucun\w*|depuis (?:des|plusieurs) (?:jours|semaines|mois)|aucune reponse|sans reponse|impossible de|j'attends|attend\w* toujours)\b/,
      /\b(?:chang\w* de (?:fournisseur|logiciel|outil|solution)|concurren\w*|autre (?:outil|solution|logiciel))\b/,
      /\b(?:renouvellement (?:\w+ )?(?:compromis|incertain|menace|en (?:doute|question|suspens))|ne (?:\w+ )?(?:pas|plus) renouvel\w*|(?:utilisation|usage) (?:a |est )?(?:\w+ )?(?:chute|baisse)|budget (?:a ete |est )?(?:reaffecte|redirige|transfere)|plus personne|autre (?:\w+ )?en parallele|en parallele (?:\w+ ){0,2}(?:un|une) autre)\b/,
    ],
    commitment: /\b(?:upgrade|renouvel\w*|pass\w* (?:a|au) (?:l'offre|plan|forfait|formule))/,
    but: /,\s*(?:mais|cependant|pourtant)\s+/,
    praise: [
      /\b(?:enfin|franchement|tres professionnel|deux fois moins)\b/,
      /\b(?:merci\w*|tres (?:bon|bien)|stable|facile a utiliser|super|genial\w*|excellent\w*|parfait\w*|ravi\w*|recommande\w*|satisfait\w*|resolu\w*|vaut (?:\w+ )?(?:le coup|son prix|chaque (?:euro|centime))|top|formidable|bravo|impeccable|adore\w*|efficace\w*)\b/,
    ],
    sarcasm:
      /^(?:super|genial|bravo|parfait|formidable|merveilleux|merci)\b.{0,60}\b(?:encore|de nouveau|a nouveau|une fois de plus)\b/,
    request:
      /\b(?:merci (?:d'|de )|pourriez-vous|pourriez vous|serait-il possible|ce serait|suggestion|proposition|possibilite de|s'il vous plait)\b/,
    lukewarm: /\b(?:ca va|pas mal|correct|moyen|rien d'exceptionnel|sans plus|ca fait le travail)\b|^(?:bien )?recu\b/,
    negation: /\b(?:pas|jamais|plus)\s+(?:\w+\s+)?(?:satisfait\w*|content\w*|bon\w*|super|recommande\w*)\b/,
    rhetorical:
      /^(?:pourquoi|comment se fait-il|combien de temps|ou (?:est|sont|sont passes?) (?:mon|ma|mes|notre|nos))\b/,
  },
  es: {
    problems: [
      /\b(?:retraso|tarde|duplicad\w*|dos veces|engan\w*|prometi\w*|todavia|evaluando otr\w*|contrato termina|eliminar (?:mi|nuestra) cuenta|bajar (?:del|al|de) plan|no le sacamos)\b/,
      /\b(?:no|nunca|jamas)\s+(?:\w+\s+)?(?:funciona\w*|anda|carga|abre|sincroniza|arranca|responde\w*|sirve|puedo|podemos|llega\w*)\b/,
      /\b(?:incorrect\w*|equivocad\w*|vaci[oa]s?|se cierra\w*|otra vez|se cuelga|se bloquea|falla\w*|error\w*|roto|rota|lent\w*|inutil|desastre|pesim\w*|malo|mala|horrible|caid\w*)\b/,
      /\b(?:cancel\w*|dar(?:me|nos) de baja|reembolso|devolu\w*|cobr\w* dos veces|doble cobro|demasiado caro|carisimo)\b/,
      /\b(?:decepcion\w*|frustra\w*|molest\w*|insatisfech\w*|inaceptable|lamentablemente|enga\w*|estafa)\b/,
      /\b(?:todavia no|aun no|sigue sin|sigo sin|desde hace (?:dias|semanas|meses)|ninguna respuesta|sin respuesta|imposible|esperando)\b/,
      /\b(?:cambiar(?:nos|me)? (?:a|de)|competencia|otra herramienta|otro proveedor)\b/,
      /\b(?:(?:riesgo|peligro) (?:\w+ )?de|no (?:\w+ )?renova\w*|renovacion (?:\w+ )?(?:incierta|en (?:duda|riesgo|el aire))|(?:uso|actividad) (?:\w+ )?(?:nul[oa]|minim[oa]|ha caido|cayo)|vuelto a (?:\w+ ){0,2}(?:papel|excel|hojas? de calculo|correo|libreta)|presupuesto (?:se ha |ha sido |fue )?(?:movido|reasignado|destinado)|ya (?:casi )?nadie|otr[oa] (?:\w+ )?en paralelo|en paralelo (?:\w+ ){0,2}otr[oa])\b/,
    ],
    commitment: /\b(?:upgrade|mejorar (?:al|el) plan|ampliar|renova\w*|pasa(?:r|dnos|nos)? al plan)/,
    but: /,\s*(?:pero|aunque|sin embargo)\s+/,
    praise: [
      /\b(?:justo lo que necesita\w*|por fin)\b/,
      /\b(?:gracias|muy bien|estable|facil de usar|genial|excelente\w*|perfect\w*|encanta\w*|recomiendo|recomendable|satisfech\w*|resuelto|vale (?:\w+ )?(?:la pena|cada (?:euro|centimo|peso))|increible|fantastic\w*|muy bueno|buenisim\w*|maravill\w*)\b/,
    ],
    sarcasm:
      /^(?:que maravilla|genial|estupendo|perfecto|fantastico|gracias)\b.{0,60}\b(?:otra vez|de nuevo|otra|pagar)\b|\bgracias, de verdad\b/,
    request:
      /\b(?:por favor|podrian|podriais|seria (?:genial|util|bueno|estupendo)|sugerencia|propuesta|posibilidad de)\b/,
    lukewarm: /\b(?:esta bien|nada del otro mundo|cumple|normalito|regular|aceptable)\b|^recibid[oa]s?\b/,
    negation:
      /\b(?:no|nunca)\s+(?:estoy\s+|estamos\s+|es\s+|esta\s+)?(?:satisfech\w*|content\w*|bueno|buena|recomendable)\b/,
    rhetorical: /^¿?(?:por que|como es posible|cuanto tiempo|donde (?:esta|estan) (?:mi|mis|nuestr\w*))\b/,
  },
  pt: {
    problems: [
      /\b(?:atras\w*|duplicad\w*|duas vezes|engan\w*|prometid\w*|continuam? sem|ainda|avaliando outr\w*|contrato termina|excluir (?:minha|nossa) conta|downgrade|rebaixar)\b/,
      /\b(?:nao|nunca|jamais)\s+(?:\w+\s+)?(?:funciona\w*|abre|carrega|sincroniza|inicia|responde\w*|serve|consigo|conseguimos|chega\w*)\b/,
      /\b(?:errad\w*|incorret\w*|vazi[oa]s?|fecha sozinh\w*|mais uma vez|de novo|trava\w*|falha\w*|erro\w*|quebrad\w*|lent\w*|inutil|desastre|pessim\w*|ruim|horrivel|caiu|fora do ar)\b/,
      /\b(?:cancel\w*|reembolso|estorno|devolu\w*|cobr\w* duas vezes|cobranca dupla|caro demais|muito caro)\b/,
      /\b(?:decepcion\w*|frustra\w*|irritad\w*|insatisfeit\w*|inaceitavel|infelizmente|engan\w*|golpe)\b/,
      /\b(?:ainda nao|continua sem|ha (?:dias|semanas|meses)|nenhuma resposta|sem resposta|impossivel|esperando|aguardando)\b/,
      /\b(?:mudar (?:para|de)|concorrente|outra ferramenta|outro fornecedor)\b/,
      /\b(?:renovacao (?:\w+ )?(?:nao esta garantida|incerta|em risco|ameacada)|nao (?:\w+ )?renova\w*|(?:orcamento|verba) (?:foi |esta sendo )?(?:remanejad\w*|realocad\w*|transferid\w*|redirecionad\w*)|uso (?:\w+ )?(?:caiu|quase nulo|minimo)|ninguem mais|outr[oa] (?:\w+ )?em paralelo|em paralelo (?:\w+ ){0,2}(?:um |uma )?outr[oa])\b/,
    ],
    commitment: /\b(?:upgrade|renova\w*|ampliar|(?:mudar|passar|migrar)(?: \w+)? para o plano)/,
    but: /,\s*(?:mas|por[eé]m|contudo)\s+/,
    praise: [
      /\b(?:finalmente|exatamente o que)\b/,
      /\b(?:obrigad\w*|muito bem|estavel|facil de usar|parabens|otim\w*|excelente\w*|perfeit\w*|ador\w*|recomendo|satisfeit\w*|resolvid\w*|vale (?:\w+ )?(?:a pena|cada centavo)|incrivel|fantastic\w*|muito bom|maravilh\w*)\b/,
    ],
    sarcasm:
      /^(?:que maravilha|otimo|perfeito|fantastico|obrigad\w*)\b.{0,60}\b(?:de novo|outra vez|mais uma vez|outra)\b/,
    request:
      /\b(?:por favor|poderiam|podem|pode|poderia|seria (?:otimo|bom|util|legal)|sugestao|proposta|possibilidade de|gostaria(?:mos)? de)\b/,
    lukewarm: /\b(?:esta bom|razoavel|nada de especial|cumpre|mais ou menos|ok)\b|^recebid[oa]s?\b/,
    negation: /\b(?:nao|nunca)\s+(?:estou\s+|estamos\s+|e\s+|esta\s+)?(?:satisfeit\w*|content\w*|bom|boa|recomendo)\b/,
    rhetorical:
      /^(?:por que|porque|como e possivel|quanto tempo|cade|onde (?:esta|estao|foi parar|foram parar) (?:o |a |os |as )?(?:meu|minha|meus|minhas|nosso|nossa|nossos|nossas))\b/,
  },
  nl: {
    problems: [
      /\b(?:te laat|pas na|vertraag\w*|dubbel(?! en dwars)|twee keer|misleid\w*|beloofd|nog steeds|opnieuw vraag|overstappen naar (?:een )?ander\w*|contract (?:loopt af|eindigt)|account (?:verwijderen|opheffen)|downgrade)\b/,
      /\bwaarom (?:worden|wordt|krijgen|staat|staan)\b/,
      /\b(?:werkt|doet|laadt|opent|synchroniseert|start)\s+(?:\w+\s+)?(?:niet|nooit)\b|\bkan\s+(?:\w+\s+)?niet\b/,
      /\b(?:verkeerd\w*|leeg|lege|sluit (?:zich|vanzelf)|storing\w*|alweer|crash\w*|loopt vast|vastgelopen|fout\w*|kapot|traag|langzaam|onbruikbaar|rampzalig|slecht\w*|waardeloos)\b/,
      /\b(?:opzeg\w*|opgezegd|terugbetal\w*|geld terug|dubbel (?:afgeschreven|betaald)|te duur|veel te duur)\b/,
      /\b(?:teleurgesteld|teleurstell\w*|gefrustreerd|frustrer\w*|irritant|ontevreden|onacceptabel|helaas|misleid\w*|oplichting)\b/,
      /\b(?:nog steeds (?:niet|geen)|al (?:dagen|weken|maanden)|geen (?:antwoord|reactie)|onmogelijk|wacht\w*)\b/,
      /\b(?:overstappen|over te stappen|concurrent\w*|ander (?:pakket|programma)|andere (?:tool|leverancier))\b/,
      /\b(?:verlenging (?:is |lijkt )?(?:\w+ )?(?:onzeker|twijfelachtig|onwaarschijnlijk)|niet (?:\w+ )?verleng\w*|(?:bijna )?niemand meer|budget gaat naar|parallel (?:\w+ ){0,2}(?:een )?ander\w*|ander\w* (?:\w+ )?parallel)\b/,
    ],
    commitment: /\b(?:upgrade|verleng\w*|stappen (?:we )?over op het|uitbreiden|omzetten naar)/,
    but: /,\s*(?:maar|echter)\s+/,
    praise: [
      /\b(?:eindelijk|niet meer zonder|echte verbetering\w*)\b/,
      /\b(?:bedankt|dank (?:je|u)\w*|fijn\w*|enthousiast|stabiel|makkelijk|super|geweldig\w*|uitstekend\w*|perfect\w*|tevreden|aanrader|aanbevelen|opgelost|(?:geld|prijs) (?:\w+ ){0,3}waard|top|fantastisch\w*|heel goed|blij)\b/,
    ],
    sarcasm: /^(?:fijn|super|top|geweldig|prachtig|mooi|dank)\b.{0,60}\b(?:weer|alweer|opnieuw)\b|\btop geregeld\b/,
    request:
      /\b(?:graag|zouden jullie|kunnen jullie|zou (?:fijn|mooi|handig|prettig) zijn|suggestie|voorstel|mogelijkheid)\b/,
    lukewarm: /\b(?:gaat wel|prima|redelijk|niets bijzonders|niks bijzonders|voldoende)\b|^(?:goed )?ontvangen\b/,
    negation: /\b(?:niet|nooit|geen)\s+(?:\w+\s+)?(?:tevreden|blij|goed|aanrader)\b/,
    rhetorical: /^(?:waarom|hoe kan het|hoe lang|waar (?:is|zijn|blijft|blijven) (?:mijn|onze))\b/,
  },
  it: {
    problems: [
      /\b(?:in ritardo|ritardo|doppi\w*|due volte|ingannat\w*|promess\w*|ancora|valutando altr\w*|contratto scade|eliminare (?:il mio|il nostro) account|downgrade)\b/,
      /\b(?:non|mai)\s+(?:\w+\s+)?(?:funziona\w*|carica|apre|sincronizza|parte|risponde\w*|riesco|riusciamo|arriva\w*)\b/,
      /\b(?:sbagliat\w*|vuot[oa]|si chiude|di nuovo|si blocca|bloccat\w*|crash\w*|errore\w*|guast\w*|rott\w*|lent\w*|inutilizzabile|disastro\w*|pessim\w*|orribile)\b/,
      /\b(?:disdett\w*|disdire|annull\w*|rimbors\w*|addebitat\w* due volte|troppo caro|costoso)\b/,
      /\b(?:delus\w*|frustra\w*|irritat\w*|insoddisfatt\w*|inaccettabile|purtroppo|ingannat\w*|truffa)\b/,
      /\b(?:ancora non|ancora nessun\w*|da (?:giorni|settimane|mesi)|nessuna risposta|senza risposta|impossibile|aspett\w*)\b/,
      /\b(?:passare a|concorrent\w*|altro strumento|altro fornitore)\b/,
    ],
    commitment: /\b(?:upgrade|rinnov\w*)/,
    but: /,\s*(?:ma|per[oò]|tuttavia)\s+/,
    praise: [
      /\b(?:finalmente|esattamente quello)\b/,
      /\b(?:grazie|stabile|facile da usare|ottim\w*|eccellent\w*|perfett\w*|ador\w*|consiglio|soddisfatt\w*|risolt\w*|fantastic\w*|molto bene|bravissim\w*|stupend\w*)\b/,
    ],
    sarcasm: /^(?:fantastico|perfetto|ottimo|bravi|grazie|che bello)\b.{0,60}\b(?:di nuovo|ancora|un altro|un'altra)\b/,
    request: /\b(?:per favore|potreste|sarebbe (?:bello|utile|ottimo)|suggerimento|proposta|possibilita di)\b/,
    lukewarm: /\b(?:va bene|discreto|niente di speciale|nella media|accettabile)\b/,
    negation: /\b(?:non|mai)\s+(?:sono\s+|siamo\s+|e\s+)?(?:soddisfatt\w*|content\w*|buono|buona|consiglio)\b/,
    rhetorical: /^(?:perche|come e possibile|quanto tempo)\b/,
  },
};
