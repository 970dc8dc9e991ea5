// overloaded.hpp: a visitor made of lambdas, one per alternative of a
// std::variant, for std::visit.
//
// A visit on JobWork names every form of work, each in its own handler, and
// no generic one (no `auto` parameter): a form added to the variant then
// fails to compile at every visit that does not say what to do with it,
// where a chain of std::get_if would let it through to run time.
//
//   const char* what = std::visit(Overloaded{[](const TrainingWork&) { return "iterations"; },
//                                            [](const MeasuredWork&) { return "a measured run"; }, ...},
//                                 job.work);
#pragma once

namespace gcsim {

template <class... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
template <class... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

}  // namespace gcsim
