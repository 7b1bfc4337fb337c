/**
 * Common English verbs in their base form, for telling a verb from a noun where the grammar alone cannot: the
 * second verb of a compound predicate ("I live and work" → "lives and works") is conjugated only when it is one
 * of these. Many are nouns too ("work", "love"); the caller looks at the words around them as well.
 */
export const baseVerbs: ReadonlySet<string> = new Set(
  `accept achieve act adapt add adjust admire admit adopt advise afford agree aim allow analyze analyse answer
  apologize appear apply appreciate approach approve argue arrange arrive ask assess assign assist assume attach
  attempt attend avoid bake balance bear beat become begin believe belong benefit bet bike blame blend block blog
  boost borrow bother bounce break breathe bring browse brush build burn buy calculate call calm camp care carry
  carve catch cause celebrate challenge change chase chat check cheer choose clarify clean clear click climb close
  coach code collaborate collect combine come comment commit communicate compare compete complain complete compose
  concentrate conduct configure confirm connect consider contact contain continue contribute control convert
  convince cook cope copy correct cost count cover crave create cry cultivate cure cut cycle dance deal debug decide
  declare decorate dedicate defend define delete deliver demonstrate deny depend deploy describe deserve design
  desire destroy detect determine develop devote die dig discover discuss dislike display dive divide do donate
  double download draft drag draw dream dress drink drive drop earn eat edit educate embrace emphasize employ
  enable encourage end endure engage enhance enjoy enroll ensure enter establish evaluate examine exercise exist
  expand expect experience experiment explain explore express extend face fail fall feed feel fetch fight figure
  fill find finish fish fit fix focus fold follow forget forgive form foster freeze gain garden gather get give
  go grab graduate greet grieve grow guess guide handle hang happen hate have head heal hear help hide highlight
  hike hire hit hold hope host hug hunt identify ignore imagine implement improve include incorporate increase
  inspire install integrate intend interview introduce invest investigate invite involve join journal judge jump
  keep kick kill knit know land last laugh launch lead learn leave lend let lie lift like limit link listen live
  load lock look lose love maintain make manage mark marry master match matter mean measure meditate meet mention
  migrate mind miss mix modify monitor motivate move name navigate need network notice obtain offer open operate
  optimize order organize organise overcome own paint park participate pass pay perform pick picture plan plant
  play point polish post pour practice practise pray predict prefer prepare present preserve press pretend
  prevent print prioritize process produce program promise promote protect prove provide publish pull purchase
  push put qualify question quit race raise reach react read realize realise recall receive recognize recommend
  record recover recycle reduce reflect refuse register relate relax release rely remain remember remind remove
  rent repair repeat replace reply report represent request require research reserve resist resolve respect
  respond rest restore retire return reveal review rewrite ride ring rise risk rock roll run save say scan schedule
  score search see seek select sell send serve set settle sew shake shape share shine shoot shop show shower sign
  sing sink sit skate ski sketch skip sleep slow smell smile solve sort speak spend split spread stand start stay
  steal step stick stop store stream stretch strive struggle study submit succeed suffer suggest suit supply
  support suppose surf surprise survive swim switch take talk taste teach tell tend test text thank think throw
  tidy touch tour track trade train transfer transform translate travel treasure treat trust try turn type
  understand unwind update upgrade upload use utilize value visit vote wait wake walk want warm wash watch wear
  welcome win wish wonder work worry wrap write yell`.split(/\s+/),
)
