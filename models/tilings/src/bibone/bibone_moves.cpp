#include "portamc/tilings/bibone/detail/bibone_moves.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace portamc::tilings {

std::vector<std::array<int, 2>> BiboneCycle::offsets() const {
  std::vector<std::array<int, 2>> out;
  int x = 0, y = 0;
  for (int d : directions) {
    out.push_back({x, y});
    x += bibone::dx[d];
    y += bibone::dy[d];
  }
  if (x != 0 || y != 0) throw std::logic_error("bibone cycle " + name + " does not close");
  return out;
}

std::vector<BiboneCycle> bibone_cycles() {
  // Rotating a walk by 60 degrees adds 1 to every direction.
  const auto rotated = [](std::vector<int> dirs, int r) {
    for (int& d : dirs) d = (d + r) % 6;
    return dirs;
  };
  std::vector<BiboneCycle> out;
  for (int r = 0; r < 3; ++r)
    out.push_back({"rhombus " + std::to_string(r), rotated({0, 1, 3, 4}, r)});
  out.push_back({"triangle up", {0, 0, 2, 2, 4, 4}});
  out.push_back({"triangle down", {3, 3, 5, 5, 1, 1}});
  // Rows of 3, 2 and 3 sites: the hourglass around two side-2 triangles' tips. Rotation by 180
  // degrees maps it to itself, so three orientations.
  for (int r = 0; r < 3; ++r) {
    out.push_back({"butterfly " + std::to_string(r), rotated({0, 0, 4, 5, 3, 3, 1, 2}, r)});
  }
  return out;
}

namespace {
int floor_mod(int v, int m) {
  return ((v % m) + m) % m;
}
int floor_div(int v, int m) {
  return (v - floor_mod(v, m)) / m;
}
}  // namespace

int PeriodicColouring::class_of(int x, int y) const {
  const int q = floor_div(y, c);
  return floor_mod(y, c) * a + floor_mod(x - b * q, a);
}

PeriodicColouring periodic_colouring(const BiboneCycle& cycle) {
  const auto sites = cycle.offsets();
  for (int index = 1; index <= 64; ++index) {
    for (int a = 1; a <= index; ++a) {
      if (index % a != 0) continue;
      for (int b = 0; b < a; ++b) {
        const PeriodicColouring colouring{a, b, index / a};
        bool disjoint = true;
        for (const auto& p : sites) {
          for (const auto& q : sites) {
            const int ddx = p[0] - q[0], ddy = p[1] - q[1];
            if ((ddx != 0 || ddy != 0) &&
                colouring.class_of(ddx, ddy) == colouring.class_of(0, 0)) {
              disjoint = false;
            }
          }
        }
        if (disjoint) return colouring;
      }
    }
  }
  throw std::logic_error("bibone cycle " + cycle.name + ": no periodic colouring found");
}

BiboneCycleShape cycle_shape(const BiboneCycle& cycle, int width) {
  BiboneCycleShape shape;
  const auto sites = cycle.offsets();
  shape.length = static_cast<std::int32_t>(sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) {
    shape.offset[i] = sites[i][0] + width * sites[i][1];
    shape.direction[i] = static_cast<std::uint8_t>(cycle.directions[i]);
  }
  return shape;
}

BiboneMoveSet bibone_move_set(const BiboneDomain& domain, MoveColouring colouring) {
  require_available(colouring);
  BiboneMoveSet set;
  set.colouring = colouring;
  set.cycles = bibone_cycles();
  set.box_sites = domain.box_sites();
  set.pair_offset.push_back(0);
  for (std::size_t f = 0; f < set.cycles.size(); ++f) {
    set.shapes.push_back(cycle_shape(set.cycles[f], domain.width()));
    const auto sites = set.cycles[f].offsets();
    const auto is_candidate = [&](int s) {
      const int x = s % domain.width(), y = s / domain.width();
      bool inside = true;
      for (const auto& o : sites) inside = inside && domain.contains(x + o[0], y + o[1]);
      return inside;
    };
    std::vector<std::vector<std::int32_t>> classes;
    if (colouring == MoveColouring::periodic) {
      const PeriodicColouring periodic = periodic_colouring(set.cycles[f]);
      set.colourings.push_back(periodic);
      classes.resize(static_cast<std::size_t>(periodic.classes()));
      for (int s = 0; s < domain.box_sites(); ++s) {
        if (is_candidate(s))
          classes[static_cast<std::size_t>(
                      periodic.class_of(s % domain.width(), s / domain.width()))]
              .push_back(s);
      }
    } else {
      std::vector<std::int32_t> candidates;
      std::vector<std::int64_t> touched;
      const BiboneCycleShape& shape = set.shapes.back();
      for (int s = 0; s < domain.box_sites(); ++s) {
        if (!is_candidate(s)) continue;
        candidates.push_back(s);
        for (int i = 0; i < shape.length; ++i) touched.push_back(std::int64_t{s} + shape.offset[i]);
      }
      classes = kokkos_kernels_classes(candidates, shape.length, touched, domain.box_sites());
    }
    for (const auto& anchors : classes) {
      set.anchors.insert(set.anchors.end(), anchors.begin(), anchors.end());
      set.pair_family.push_back(static_cast<int>(f));
      set.pair_offset.push_back(static_cast<std::int32_t>(set.anchors.size()));
    }
  }
  if (set.pair_family.empty()) {  // no candidate cycle at all: one empty pair
    set.pair_family.push_back(0);
    set.pair_offset.push_back(0);
  }
  return set;
}

int bibone_cycle_state(const std::vector<std::uint8_t>& bytes, const BiboneCycleShape& shape,
                       int anchor) {
  for (int state = 0; state < 2; ++state) {
    bool holds = true;
    for (int i = state; i < shape.length; i += 2) {
      holds = holds && bytes[anchor + shape.offset[i]] == shape.direction[i];
    }
    if (holds) return state;
  }
  return -1;
}

void bibone_set_cycle(std::vector<std::uint8_t>& bytes, const BiboneCycleShape& shape, int anchor,
                      int state) {
  for (int i = state; i < shape.length; i += 2) {
    const int j = (i + 1) % shape.length;
    bytes[anchor + shape.offset[i]] = shape.direction[i];
    bytes[anchor + shape.offset[j]] =
        static_cast<std::uint8_t>(bibone::opposite(shape.direction[i]));
  }
}

}  // namespace portamc::tilings
