/**
 * English function words, plus words that every tool-search request uses and no
 * tool's meaning depends on ("please", "want", "tool"): they only add noise to a score.
 */
const FUNCTION_WORDS = `a about above after again against all am an and any are as at be because been before
being below between both but by can could did do does doing done down during each either else etc every few
for from further had has have having he her here hers herself him himself his how i if in into is it its itself
just let lets me might more most must my myself no nor not now of off on once only or other our ours ourselves
out over own per same shall she should so some such than that the their theirs them themselves then there these
they this those through thus to too under until up upon us very via was we were what whatever when where whether
which while who whom whose why will with within without would yes yet you your yours yourself yourselves also
may much many s t d ll m o re ve y don doesn isn aren wasn weren won wouldn shouldn couldn ok okay`;

const REQUEST_WORDS = `please pls kindly want wants wanted need needs needed like would help helps assist
tool tools app apps plugin plugins function functions able possible something anything someone thing things
way ways tell give show me let know`;

export const STOPWORDS: ReadonlySet<string> = new Set(
  `${FUNCTION_WORDS} ${REQUEST_WORDS}`.split(/\s+/).filter((word) => word !== ""),
);
