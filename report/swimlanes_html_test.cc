// Swimlanes HTML tests: the page escapes every string, draws one lane per component, marks
// the breaking step and only it, points every cause at a write that exists, references
// nothing outside itself, and is the same bytes every time. Expected: all pass.
#include "report/swimlanes_html.h"

#include <gtest/gtest.h>

#include <string>

namespace preemptcheck::report {
namespace {

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

const std::string kHostile = "<img src=x onerror=alert(1)> & \"q\" 'a'";

// A small timeline with a hostile pod name in every string field.
Timeline sample(bool with_break = true) {
  Timeline t;
  t.title = "no-double-victim on " + kHostile;
  t.property = "no-double-victim";
  t.message = "p chooses " + kHostile + " twice";
  t.scenario = "s: " + kHostile;
  t.cluster = {"node n: cpu 4", "pod " + kHostile};
  t.switches = "profile reference " + kHostile;
  t.found_by = "breadth-first " + kHostile;
  t.reproduce = "preemptcheck replay " + kHostile;
  t.initial_state = {"queue  " + kHostile};
  TimelineStep s1;
  s1.number = 1;
  s1.lane = Lane::kExecutor;
  s1.actor = "job " + kHostile;
  s1.action = "evict p " + kHostile;
  s1.comment = "evicts " + kHostile;
  s1.writes = {kHostile + " modified: terminating"};
  s1.state = {"queue  " + kHostile + " changed"};
  TimelineStep s2;
  s2.number = 2;
  s2.lane = Lane::kInformer;
  s2.action = "observe";
  s2.comment = "delivers";
  s2.causes = {{1, 0}};
  s2.state = s1.state;
  s2.breaks = with_break;
  if (with_break)
    s2.violations = {"no-double-victim: " + kHostile};
  t.steps = {s1, s2};
  return t;
}

TEST(SwimlanesHtml, EscapesEveryString) {
  const std::string html = render_swimlanes_html(sample());
  EXPECT_EQ(count(html, "<img"), 0u);
  EXPECT_EQ(count(html, "onerror=alert(1)> &"), 0u);
  EXPECT_GE(count(html, "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;"), 10u);
}

TEST(SwimlanesHtml, HtmlEscapeReplacesTheFiveSpecialCharacters) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape("plain p-high v1"), "plain p-high v1");
}

TEST(SwimlanesHtml, DrawsOneLanePerComponent) {
  const std::string html = render_swimlanes_html(sample());
  EXPECT_EQ(count(html, "class=\"lane-head "), kLaneCount);
  for (Lane lane : all_lanes()) {
    const std::string id(lane_id(lane));
    EXPECT_EQ(count(html, "class=\"lane-head lane-" + id + "\" data-lane=\"" + id + "\""), 1u)
        << id;
    // One cell per lane in every row: the initial state and the two steps.
    EXPECT_EQ(count(html, "<td class=\"lane lane-" + id + "\">"), 3u) << id;
  }
}

TEST(SwimlanesHtml, PutsEachActionInItsLane) {
  const std::string html = render_swimlanes_html(sample());
  EXPECT_NE(html.find("<td class=\"lane lane-executor\"><div class=\"act\">"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"lane lane-informer\"><div class=\"act\">"), std::string::npos);
  EXPECT_EQ(count(html, "<div class=\"act\">"), 2u);
}

TEST(SwimlanesHtml, MarksTheBreakingStepAndOnlyIt) {
  const std::string html = render_swimlanes_html(sample());
  EXPECT_EQ(count(html, "<tbody class=\"step breaks"), 1u);
  EXPECT_EQ(count(html, "<tbody class=\"step breaks open\" id=\"step-2\""), 1u);
  EXPECT_NE(html.find("no-double-victim</span> breaks at step 2 of 2"), std::string::npos);

  const std::string holds = render_swimlanes_html(sample(false));
  EXPECT_EQ(count(holds, "<tbody class=\"step breaks"), 0u);
  EXPECT_NE(holds.find("did not break in these 2 steps"), std::string::npos);
}

TEST(SwimlanesHtml, MarksALassosLoopBeforeItsFirstStep) {
  Timeline t = sample(false);
  t.property = "no-starvation";
  t.loop = 1;
  const std::string html = render_swimlanes_html(t);
  EXPECT_EQ(count(html, "<tbody class=\"loop-start\""), 1u);
  // Between step 1 and step 2.
  EXPECT_LT(html.find("id=\"step-1\""), html.find("class=\"loop-start\""));
  EXPECT_LT(html.find("class=\"loop-start\""), html.find("id=\"step-2\""));
  EXPECT_NE(html.find("the steps below repeat forever, back to the state after step 1"),
            std::string::npos);
  EXPECT_NE(html.find("no-starvation</span>: after step 1, step 2 repeats forever</h1>"),
            std::string::npos);
  EXPECT_EQ(count(render_swimlanes_html(sample(false)), "class=\"loop-start\""), 0u);
}

TEST(SwimlanesHtml, PointsEveryCauseAtAWrite) {
  const std::string html = render_swimlanes_html(sample());
  EXPECT_EQ(count(html, "data-cause=\"1-0\""), 1u);
  EXPECT_EQ(count(html, "id=\"w1-0\""), 1u);
}

TEST(SwimlanesHtml, ShowsWhatEachStepChanged) {
  const std::string html = render_swimlanes_html(sample());
  EXPECT_EQ(count(html, "<li class=\"old\">queue  &lt;img"), 1u);
  EXPECT_EQ(count(html, "<li class=\"new\">queue  &lt;img"), 1u);
  EXPECT_EQ(count(html, "<li class=\"none\">no visible change</li>"), 1u);
}

TEST(SwimlanesHtml, ReferencesNothingOutsideItself) {
  const std::string html = render_swimlanes_html(sample());
  for (const char* banned :
       {"http", "https", "<script src", "<link", "@import", "src=\"", "href=\"", "@font-face"}) {
    EXPECT_EQ(count(html, banned), 0u) << banned;
  }
  // The one url() is the arrowhead marker, a reference inside the page.
  EXPECT_EQ(count(html, "url("), count(html, "url(#head)"));
  EXPECT_EQ(count(html, "<script>"), 1u);
  EXPECT_EQ(count(html, "<style>"), 1u);
}

TEST(SwimlanesHtml, IsDeterministic) {
  EXPECT_EQ(render_swimlanes_html(sample()), render_swimlanes_html(sample()));
}

}  // namespace
}  // namespace preemptcheck::report
