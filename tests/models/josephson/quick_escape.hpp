#pragma once
// A small escape ensemble shared by the josephson tests: a low barrier (Delta U / theta =
// 0.85), so realisations escape after about a thousand steps and small ensembles finish in
// milliseconds, and a cap of 4000 steps that censors some of them.
#include <cstdint>

#include "portamc/josephson/parameters.hpp"
#include "portamc/josephson/run.hpp"

namespace portamc::josephson::testing {

inline LangevinParameters quick_escape(std::uint64_t realisations = 512) {
  LangevinParameters p;
  p.V0 = 1;
  p.beta = 0.2;
  p.theta = 0.2;
  p.gamma0 = 0.8;
  p.h = 0.01;
  p.max_steps = 4000;
  p.realisations = realisations;
  p.seed = 42;
  return p;
}

/// The same junction as a whole run of 150 realisations in launches of 400 steps over 9 slots:
/// a few launches leave finished realisations and realisations in flight (for checkpoints).
inline RunParameters quick_run() {
  RunParameters p;
  p.V0 = 1;
  p.beta = 0.2;
  p.theta = 0.2;
  p.gamma = 0.8;
  p.h = 0.01;
  p.max_steps = 4000;
  p.realisations = 150;
  p.seed = 5;
  p.ensemble.slots = 9;
  p.ensemble.steps_per_launch = 400;
  return p;
}

}  // namespace portamc::josephson::testing
