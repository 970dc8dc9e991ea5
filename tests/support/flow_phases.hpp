// flow_phases.hpp: flows between hosts of a SimGrid platform, started
// together phase after phase, and how long each took: the check that links
// are shared as the routes say.
//
//   const auto seconds = run_flow_phases(host0, {{{a, b, 1e8}, {c, d, 1e8}}});  // one phase of two flows
//   seconds[0][1];  // the second flow's time, start to end
//
// Call it once per engine, before the engine runs: it creates the actors
// and runs the simulation to its end.
#pragma once

#include <cstdint>
#include <vector>

#include <simgrid/s4u.hpp>

namespace gcsim::testing {

struct Flow {
  simgrid::s4u::Host* from;
  simgrid::s4u::Host* to;
  std::uint64_t bytes;
};

/// Runs each phase's flows at once, the next phase when the last flow of
/// the previous ended; per phase, per flow, seconds from the phase's start
/// to the flow's end.
inline std::vector<std::vector<double>> run_flow_phases(simgrid::s4u::Host* driver,
                                                        const std::vector<std::vector<Flow>>& phases) {
  namespace sg4 = simgrid::s4u;
  std::vector<std::vector<double>> seconds(phases.size());
  sg4::Actor::create("phases", driver, [&] {
    for (std::size_t p = 0; p < phases.size(); ++p) {
      const double start = sg4::Engine::get_clock();
      seconds[p].assign(phases[p].size(), 0);
      std::vector<sg4::ActorPtr> flows;
      for (std::size_t f = 0; f < phases[p].size(); ++f) {
        const Flow flow = phases[p][f];
        double* took = &seconds[p][f];
        flows.push_back(sg4::Actor::create("flow", flow.from, [flow, took, start] {
          sg4::Comm::sendto(flow.from, flow.to, flow.bytes);
          *took = sg4::Engine::get_clock() - start;
        }));
      }
      for (const sg4::ActorPtr& flow : flows) flow->join();
    }
  });
  sg4::Engine::get_instance()->run();
  return seconds;
}

}  // namespace gcsim::testing
