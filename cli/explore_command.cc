// The `explore` command: the web server of the explorer page (explore_command.h). Every
// answer is computed from the request alone — the path is in the URL — so the server keeps
// no state between requests but its scenario.
#include "cli/explore_command.h"

#include <fmt/format.h>

#include <ostream>

#include "cli/args.h"
#include "cli/common.h"
#include "report/print.h"

#ifdef PREEMPTCHECK_HAVE_HTTPLIB
#include <httplib.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

#include <sys/socket.h>

#include "cli/interrupt_signals.h"
#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "properties/explore_path.h"
#include "properties/schedule.h"
#include "report/explore_json.h"
#include "report/explore_page.h"
#include "report/swimlanes_html.h"
#include "report/timeline.h"
#include "spec/property.h"
#endif

namespace preemptcheck::cli {

#ifndef PREEMPTCHECK_HAVE_HTTPLIB

bool explore_available() { return false; }

int run_explore(const ExploreOptions&, std::ostream&, std::ostream& err) {
  report::print(err,
                "preemptcheck explore: this build has no web server (cpp-httplib was not found "
                "when it was configured; Debian: apt-get install libcpp-httplib-dev, then "
                "configure again)\n");
  return kExitBadInput;
}

#else

namespace {

using report::Json;

// What every handler reads: the scenario with its switches, and how "explore" was started.
struct Explorer {
  Scenario scenario;
  std::shared_ptr<const Cluster> cluster;
  std::string command;  ///< the command line, for a counterexample's "Found by:" line
  std::uint64_t max_states = 0;
  const std::atomic<int>* interrupt = nullptr;
  /// One search at a time, in a request or in the background: the machine's cores are the
  /// page's. (A flag, not a mutex: a background search ends on its own thread.)
  std::atomic<bool> searching{false};
  /// The search the page started in the background (/api/search/…), and what it has found.
  struct Job {
    std::mutex lock;  ///< over the fields below
    std::thread thread;
    std::atomic<int> cancel{0};  ///< its interrupt: a cancel, or a signal to the server
    std::uint64_t id = 0;        ///< 0: none started yet
    bool running = false;
    std::uint64_t states = 0;
    std::uint32_t depth = 0;
    Json result;  ///< the finished search, as /api/shortest answers
  } job;
};

void send_json(httplib::Response& res, int status, const Json& doc) {
  res.status = status;
  // A path's bytes are echoed in its error: bytes that are not UTF-8 are replaced, not thrown.
  res.set_content(doc.dump(-1, ' ', false, Json::error_handler_t::replace),
                  "application/json; charset=utf-8");
}

void send_error(httplib::Response& res, int status, std::string_view message) {
  send_json(res, status, report::explore_error_json(message));
}

// The schedule of the request's `path`, or nothing with the 4xx answer already set: 400 for
// a path that does not parse, 409 with replay's words for a step that is not enabled.
std::optional<Schedule> path_schedule(const Explorer& e, const httplib::Request& req,
                                      httplib::Response& res) {
  std::string error;
  const auto actions = parse_path(req.get_param_value("path"), *e.cluster, error);
  if (!actions) {
    send_error(res, 400, "bad path: " + error);
    return std::nullopt;
  }
  Schedule s = replay_schedule(e.scenario, *actions);
  if (s.blocked) {
    send_json(res, 409, report::explore_blocked_json(s));
    return std::nullopt;
  }
  return s;
}

// The safety property the request's `property` names, or nothing with a 400 answer set.
std::optional<spec::Property> safety_property(const httplib::Request& req, httplib::Response& res) {
  const std::string name = req.get_param_value("property");
  const auto p = spec::find_property(name);
  if (!p || spec::property_def(*p).is_witness) {
    send_error(res, 400, fmt::format("unknown safety property '{}'", name));
    return std::nullopt;
  }
  return p;
}

// The request's property and path for a search from the path's end, or nothing with the 4xx
// answer set (the property already broken on the path is 409).
std::optional<std::pair<spec::Property, Schedule> > search_request(const Explorer& e,
                                                                   const httplib::Request& req,
                                                                   httplib::Response& res) {
  const auto property = safety_property(req, res);
  if (!property)
    return std::nullopt;
  auto s = path_schedule(e, req, res);
  if (!s)
    return std::nullopt;
  const std::string_view name = spec::property_def(*property).name;
  if (const auto k = first_break(*s, name)) {
    send_error(res, 409, fmt::format("{} already broke at step {}: go back before it", name, *k));
    return std::nullopt;
  }
  return std::make_pair(*property, std::move(*s));
}

Json search_json(const Explorer& e, const Schedule& s, spec::Property property,
                 const ViolationSearch& found) {
  std::vector<Action> path;
  for (const ScheduleStep& step : s.steps)
    path.push_back(step.action);
  path.insert(path.end(), found.steps.begin(), found.steps.end());
  return {{"found", found.found},
          {"property", spec::property_def(property).name},
          {"path", found.found ? Json(format_path(path, *e.cluster)) : Json(nullptr)},
          {"steps", found.steps.size()},
          {"message", found.message},
          {"states", found.states},
          {"depth", found.depth},
          {"limit", found.limit}};
}

// Takes the one search, or answers 503: false when another search is under way.
bool take_search(Explorer& e, httplib::Response& res) {
  bool idle = false;
  if (e.searching.compare_exchange_strong(idle, true))
    return true;
  send_error(res, 503, "another search is under way; try again when it ends");
  return false;
}

void shortest(Explorer& e, const httplib::Request& req, httplib::Response& res) {
  const auto asked = search_request(e, req, res);
  if (!asked || !take_search(e, res))
    return;
  struct Release {
    std::atomic<bool>& flag;
    ~Release() { flag.store(false); }
  } release{e.searching};
  const auto& [property, s] = *asked;
  send_json(
      res, 200,
      search_json(e, s, property, shortest_violation_from(s, property, e.max_states, e.interrupt)));
}

// /api/search/start: the same search in the background, one at a time; its id.
void search_start(Explorer& e, const httplib::Request& req, httplib::Response& res) {
  auto asked = search_request(e, req, res);
  if (!asked || !take_search(e, res))
    return;
  Explorer::Job& job = e.job;
  // The last job has released the search, so its thread has done all but return.
  if (job.thread.joinable())
    job.thread.join();
  const std::lock_guard fields(job.lock);
  job.cancel.store(e.interrupt->load());
  ++job.id;
  job.running = true;
  job.states = 0;
  job.depth = 0;
  job.result = Json();
  job.thread = std::thread([&e, asked = std::move(*asked)] {
    Explorer::Job& j = e.job;
    const auto& [property, s] = asked;
    Json result;
    try {
      const ViolationSearch found = shortest_violation_from(
          s, property, e.max_states, &j.cancel, [&j](std::uint64_t states, std::uint32_t depth) {
            const std::lock_guard progress(j.lock);
            j.states = states;
            j.depth = depth;
          });
      result = search_json(e, s, property, found);
    } catch (const std::exception& x) {
      result = {{"error", std::string("the search failed: ") + x.what()}};
    }
    {
      const std::lock_guard done(j.lock);
      j.result = std::move(result);
      j.running = false;
    }
    e.searching.store(false);  // after the result is in: a new job may join this thread at once
  });
  send_json(res, 200, {{"id", job.id}});
}

// /api/search/status: the background search's progress, or its result once it ended.
void search_status(Explorer& e, httplib::Response& res) {
  const std::lock_guard fields(e.job.lock);
  if (e.job.id == 0) {
    send_error(res, 404, "no search was started: /api/search/start?path=…&property=…");
    return;
  }
  Json doc = {{"id", e.job.id},
              {"running", e.job.running},
              {"states", e.job.states},
              {"depth", e.job.depth}};
  if (!e.job.running)
    doc["result"] = e.job.result;
  send_json(res, 200, doc);
}

// /api/search/cancel: stops the background search (it answers "interrupted" as its limit).
void search_cancel(Explorer& e, httplib::Response& res) {
  const std::lock_guard fields(e.job.lock);
  if (e.job.running)
    e.job.cancel.store(SIGINT);
  send_json(res, 200, {{"id", e.job.id}, {"cancelled", e.job.running}});
}

// The path as the value of a counterexample file of the property it breaks at its last step
// (the named one, or the first there), as `check --out` writes it: every fingerprint, the
// digest; or nothing with the 4xx answer set.
std::optional<Counterexample> path_counterexample(const Explorer& e, const httplib::Request& req,
                                                  httplib::Response& res,
                                                  std::optional<Schedule>& s) {
  s = path_schedule(e, req, res);
  if (!s)
    return std::nullopt;
  const std::size_t last = s->steps.size();
  std::string name = req.get_param_value("property");
  if (name.empty() && !s->violated_at(last).empty())
    name = s->violated_at(last).front().name;
  if (name.empty()) {
    send_error(res, 409,
               "the path's last step breaks no property: a counterexample file records a "
               "violation at its last step");
    return std::nullopt;
  }
  if (!req.get_param_value("property").empty() && !safety_property(req, res))
    return std::nullopt;
  const auto k = first_break(*s, name);
  if (!k || *k != last) {
    send_error(res, 409,
               k ? fmt::format("{} broke first at step {}, not at the last step {}: go back to "
                               "step {}",
                               name, *k, last, *k)
                 : fmt::format("{} does not break on this path", name));
    return std::nullopt;
  }
  FoundBy found_by;
  found_by.method = "explore";
  found_by.shortest = false;
  return to_counterexample(*s, e.scenario, name, found_by, e.command);
}

void counterexample(const Explorer& e, const httplib::Request& req, httplib::Response& res) {
  std::optional<Schedule> s;
  const auto cx = path_counterexample(e, req, res, s);
  if (!cx)
    return;
  const std::string file = counterexample_file_name(*cx);
  res.set_header("Content-Disposition", fmt::format("attachment; filename=\"{}\"", file));
  res.set_content(counterexample_to_yaml(*cx, file), "application/yaml; charset=utf-8");
}

// The swimlane page of the path, as `replay --html` draws the file the path downloads as.
void swimlanes(const Explorer& e, const httplib::Request& req, httplib::Response& res) {
  std::optional<Schedule> s;
  const auto cx = path_counterexample(e, req, res, s);
  if (!cx)
    return;
  std::string error;
  const auto timeline = report::make_timeline(report::timeline_source(*cx, e.scenario, e.command),
                                              *s, report::padded_state_lines, error);
  if (!timeline) {
    send_error(res, 409, error);
    return;
  }
  res.set_header("Content-Security-Policy",
                 "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                 "img-src data:; form-action 'none'; frame-ancestors 'none'");
  res.set_content(report::render_swimlanes_html(*timeline), "text/html; charset=utf-8");
}

// A random walk from the path's end (`seed`, at most `depth` steps, 100 unless given): the
// path it makes and why it ended.
void walk(const Explorer& e, const httplib::Request& req, httplib::Response& res) {
  const auto number = [&req, &res](const char* key, std::uint64_t fallback,
                                   std::uint64_t max) -> std::optional<std::uint64_t> {
    if (!req.has_param(key))
      return fallback;
    const auto n = parse_whole(req.get_param_value(key), max);
    if (!n)
      send_error(res, 400, fmt::format("{} expects a whole number from 0 to {}", key, max));
    return n;
  };
  const auto seed = number("seed", 0, std::numeric_limits<std::uint64_t>::max());
  if (!seed)
    return;
  const auto depth = number("depth", 100, 10'000);
  if (!depth)
    return;
  const auto s = path_schedule(e, req, res);
  if (!s)
    return;
  const RandomWalk found = random_walk_from(*s, *seed, static_cast<std::uint32_t>(*depth));
  std::vector<Action> path;
  for (const ScheduleStep& step : s->steps)
    path.push_back(step.action);
  path.insert(path.end(), found.steps.begin(), found.steps.end());
  send_json(res, 200,
            {{"path", format_path(path, *e.cluster)},
             {"seed", *seed},
             {"steps", found.steps.size()},
             {"stopped", found.stopped}});
}

std::string command_line(const ExploreOptions& o) {
  std::string out = "preemptcheck explore";
  if (!o.scenario_path.empty())
    out += " " + recorded_path(o.scenario_path);
  if (o.mechanisms.profile)
    out += " --profile " + *o.mechanisms.profile;
  for (const auto& [name, value] : o.mechanisms.switches)
    out += fmt::format(" --{}={}", name, value);
  return out;
}

void routes(httplib::Server& server, Explorer& e, const int& port) {
  // DNS rebinding: a page of another site that resolves its own name to 127.0.0.1 sends its
  // own Host; only the names of this address are answered.
  server.set_pre_routing_handler([&port](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    if (host == fmt::format("127.0.0.1:{}", port) || host == fmt::format("localhost:{}", port))
      return httplib::Server::HandlerResponse::Unhandled;
    send_error(res, 421,
               fmt::format("this server answers only requests to 127.0.0.1:{} or localhost:{}, "
                           "not to '{}'",
                           port, port, host));
    return httplib::Server::HandlerResponse::Handled;
  });
  server.set_default_headers({{"Cache-Control", "no-store"},
                              {"X-Content-Type-Options", "nosniff"},
                              {"X-Frame-Options", "DENY"},
                              {"Referrer-Policy", "no-referrer"}});
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                   "connect-src 'self'; img-src data:; form-action 'none'; "
                   "frame-ancestors 'none'");
    res.set_content(std::string(report::explore_page_html()), "text/html; charset=utf-8");
  });
  server.Get("/api/state", [&e](const httplib::Request& req, httplib::Response& res) {
    if (const auto s = path_schedule(e, req, res))
      send_json(res, 200, report::explore_state_json(e.scenario, *s));
  });
  server.Get("/api/shortest",
             [&e](const httplib::Request& req, httplib::Response& res) { shortest(e, req, res); });
  server.Get("/counterexample.yaml", [&e](const httplib::Request& req, httplib::Response& res) {
    counterexample(e, req, res);
  });
  server.Get("/swimlanes.html",
             [&e](const httplib::Request& req, httplib::Response& res) { swimlanes(e, req, res); });
  server.Get("/api/search/start", [&e](const httplib::Request& req, httplib::Response& res) {
    search_start(e, req, res);
  });
  server.Get("/api/search/status",
             [&e](const httplib::Request&, httplib::Response& res) { search_status(e, res); });
  server.Get("/api/search/cancel",
             [&e](const httplib::Request&, httplib::Response& res) { search_cancel(e, res); });
  server.Get("/api/walk",
             [&e](const httplib::Request& req, httplib::Response& res) { walk(e, req, res); });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty())
      return;
    if (res.status == 404) {
      send_error(res, 404,
                 fmt::format("no page '{}': the page is /, its API /api/state, /api/shortest, "
                             "/api/search/start|status|cancel, /api/walk, /counterexample.yaml "
                             "and /swimlanes.html",
                             req.path));
    } else {
      send_error(res, res.status, fmt::format("the request was refused (HTTP {})", res.status));
    }
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& x) {
          what = x.what();
        } catch (...) {
        }
        send_error(res, 500, "the model failed on this request: " + what);
      });
}

}  // namespace

bool explore_available() { return true; }

int run_explore(const ExploreOptions& o, std::ostream& out, std::ostream& err) {
  Explorer e;
  try {
    e.scenario = load_scenario(o.scenario_path);
  } catch (const ScenarioError& x) {
    report::print(err, "preemptcheck explore: {}\n", x.what());
    return kExitBadInput;
  }
  if (!choose_mechanisms(e.scenario, o.mechanisms, "explore", "preemptcheck explore", err))
    return kExitBadInput;
  e.cluster = std::make_shared<const Cluster>(e.scenario);
  e.command = command_line(o);
  e.max_states = o.max_states;
  const InterruptSignals signals;
  e.interrupt = signals.flag();
  // A browser that closes its connection while an answer is written must not end the server.
  std::signal(SIGPIPE, SIG_IGN);

  httplib::Server server;
  int port = o.port;
  routes(server, e, port);
  // SO_REUSEADDR alone: cpp-httplib's default adds SO_REUSEPORT, under which a second server
  // (another user's) could listen on the same port and take half of the requests.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.set_keep_alive_max_count(100);
  server.set_payload_max_length(64 * 1024);
  const bool bound = o.port == 0 ? (port = server.bind_to_any_port("127.0.0.1")) > 0
                                 : server.bind_to_port("127.0.0.1", o.port);
  if (!bound) {
    report::print(err, "preemptcheck explore: cannot listen on 127.0.0.1:{}: {}\n", o.port,
                  errno != 0 ? std::strerror(errno) : "the port is taken");
    return kExitBadInput;
  }
  report::print(out, "explore     http://127.0.0.1:{}/\nscenario    {} ({}), profile {}\n", port,
                e.scenario.name,
                o.scenario_path.empty() ? std::string("embedded default") : o.scenario_path,
                e.scenario.profile);
  report::print(out, "stop        Ctrl-C\n");
  out.flush();
  std::atomic<bool> done{false};
  // The signal handler only sets a flag; this thread turns it into a stop, again until the
  // server has stopped (a stop before listening has begun does nothing).
  std::thread watcher([&] {
    while (!done.load()) {
      if (signals.flag()->load() != 0) {
        e.job.cancel.store(signals.flag()->load());
        server.stop();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  server.listen_after_bind();
  done = true;
  watcher.join();
  e.job.cancel.store(SIGINT);  // a background search ends with the server
  if (e.job.thread.joinable())
    e.job.thread.join();
  if (const int signal = signals.flag()->load(); signal != 0)
    report::print(out, "stopped     {}\n", InterruptSignals::signal_name(signal));
  out.flush();
  return kExitHolds;
}

#endif

}  // namespace preemptcheck::cli
