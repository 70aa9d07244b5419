// StateGraph: the DOT drawing, through Boost.Graph's write_graphviz, and the counterexample
// marking.
#include "checker/graph.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>

#include <string_view>

namespace preemptcheck::checker {
namespace {

// Vertices are StateGraph vertex indices (vecS); each edge carries its StateGraph index.
// Bidirectional, so that write_graphviz walks the global edge list: edges come out in
// StateGraph order.
using DotGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                       boost::no_property, std::size_t>;

constexpr std::string_view kViolatingFill = "#f4a6a6";

// `text` as a DOT string literal; line breaks become DOT's centred "\n".
std::string dot_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  out += '"';
  return out;
}

class VertexWriter {
 public:
  explicit VertexWriter(const StateGraph& graph) : graph_(graph) {}

  void operator()(std::ostream& out, std::size_t vertex) const {
    const GraphVertex& v = graph_.vertices[vertex];
    out << "[label=" << dot_string(v.label);
    if (v.initial) {
      out << ", shape=doublecircle";
    }
    if (v.violating && v.on_counterexample) {
      out << ", style=\"filled,bold\", penwidth=2";
    } else if (v.violating && v.off_path) {
      out << ", style=\"filled,dashed\", color=gray50";
    } else if (v.violating) {
      out << ", style=filled";
    } else if (v.on_counterexample) {
      out << ", style=bold, penwidth=2";
    } else if (v.off_path) {
      out << ", style=dashed, color=gray50";
    }
    if (v.violating) {
      out << ", fillcolor=\"" << kViolatingFill << '"';
    }
    out << ']';
  }

 private:
  const StateGraph& graph_;
};

class EdgeWriter {
 public:
  EdgeWriter(const StateGraph& graph, const DotGraph& dot) : graph_(graph), dot_(dot) {}

  void operator()(std::ostream& out, const DotGraph::edge_descriptor& edge) const {
    const GraphEdge& e = graph_.edges[dot_[edge]];
    out << "[label=" << dot_string(e.label);
    if (e.on_counterexample) {
      out << ", style=bold, penwidth=2";
    } else if (e.off_path) {
      out << ", style=dashed, color=gray50, fontcolor=gray30";
    }
    out << ']';
  }

 private:
  const StateGraph& graph_;
  const DotGraph& dot_;
};

// Graph attributes. A large graph gets dot's quickest settings: network-simplex ranking and
// positioning cut short, one crossing-minimisation pass, straight edges. The drawing is
// rougher, but the default scenario (about 9,000 states) renders in seconds instead of the
// minutes full quality takes.
class GraphWriter {
 public:
  explicit GraphWriter(const StateGraph& graph) : graph_(graph) {}

  void operator()(std::ostream& out) const {
    write_legend(out);
    if (graph_.vertices.size() <= kQuickLayoutStates)
      return;
    out << "// " << graph_.vertices.size() << " states: laid out with dot's quickest settings\n"
        << "graph [newrank=true, splines=false, nslimit=0, nslimit1=0, mclimit=0.001, "
           "remincross=false, searchsize=1, maxiter=1];\n";
  }

 private:
  // A box of sample states and steps, one per style the graph uses, each saying what it means.
  void write_legend(std::ostream& out) const {
    bool violating = false;
    bool on_path = false;
    bool off_path = false;
    for (const GraphVertex& v : graph_.vertices) {
      violating = violating || v.violating;
      on_path = on_path || v.on_counterexample;
      off_path = off_path || v.off_path;
    }
    out << "subgraph cluster_legend {\n"
        << "label=\"legend\"; fontsize=12; style=rounded; color=gray50;\n"
        << "node [fontsize=10]; edge [fontsize=10];\n"
        << "legend_initial [label=\"initial state\", shape=doublecircle];\n"
        << "legend_state [label=\"state: queues; pods per node\\n(~ terminating, + binding); "
           "jobs\"];\n"
        << "legend_step_from [shape=point]; legend_step_to [shape=point];\n"
        << "legend_step_from -> legend_step_to [label=\"step (action)\"];\n";
    if (on_path) {
      out << "legend_path [label=\"state on the counterexample\\n(#k: after step k)\", "
             "style=bold, penwidth=2];\n"
          << "legend_path_from [shape=point]; legend_path_to [shape=point];\n"
          << "legend_path_from -> legend_path_to [label=\"counterexample step\", style=bold, "
             "penwidth=2];\n";
    }
    if (violating) {
      out << "legend_violating [label=\"entered by a step that\\nviolates a property\", "
             "style=filled, fillcolor=\""
          << kViolatingFill << "\"];\n";
    }
    if (off_path) {
      out << "legend_off [label=\"other successor\\n(not expanded)\", style=dashed, "
             "color=gray50];\n"
          << "legend_off_from [shape=point]; legend_off_to [shape=point];\n"
          << "legend_off_from -> legend_off_to [label=\"step off the path\", style=dashed, "
             "color=gray50];\n";
    }
    out << "}\n";
  }

  const StateGraph& graph_;
};

}  // namespace

void write_dot(const StateGraph& graph, std::ostream& out) {
  DotGraph dot(graph.vertices.size());
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    boost::add_edge(graph.edges[i].from, graph.edges[i].to, i, dot);
  }
  boost::write_graphviz(out, dot, VertexWriter(graph), EdgeWriter(graph, dot), GraphWriter(graph));
}

namespace detail {

void mark_counterexample(StateGraph& graph, const std::vector<std::size_t>& tree_edges,
                         std::uint32_t violation_state,
                         std::optional<std::uint64_t> violation_edge) {
  std::uint32_t id = violation_state;
  graph.vertices[id].on_counterexample = true;
  if (violation_edge) {
    GraphEdge& last = graph.edges[*violation_edge];
    last.on_counterexample = true;
    id = last.from;
  }
  graph.vertices[id].on_counterexample = true;
  while (id != 0) {
    GraphEdge& edge = graph.edges[tree_edges[id - 1]];
    edge.on_counterexample = true;
    id = edge.from;
    graph.vertices[id].on_counterexample = true;
  }
}

}  // namespace detail
}  // namespace preemptcheck::checker
