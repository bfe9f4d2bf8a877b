// config::Bindings fills a parameter struct from a validated configuration, key by key, and
// EnumNames gives one table of names per enumeration (choices, to_string, parse).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "portamc/config_binding.hpp"

namespace {

using namespace portamc;
using config::Boolean, config::Integer, config::Real, config::RealList, config::String;

enum class Shape { square, hexagon };

const EnumNames<Shape>& shape_names() {
  static const EnumNames<Shape> names{{"square", Shape::square}, {"hexagon", Shape::hexagon}};
  return names;
}

struct Inner {
  double coupling = -1;
};
struct Params {
  int size = -1;
  std::uint64_t seed = 0;
  Inner inner;
  Shape shape = Shape::square;
  std::vector<double> temperatures;
  bool flag = false;
  std::string name;
  int blocks = -1;
  std::uint64_t big = 1;
  double doubled = 0;
};

config::Bindings<Params> bindings() {
  config::Bindings<Params> b("test-app");
  b.integer("lattice.size", &Params::size, Integer{2, 100, 8}, "size")
      .integer("run.seed", &Params::seed, Integer{0, 1LL << 62, 3}, "seed")
      .real(
          "model.coupling_over_4", [](Params& p) -> double& { return p.inner.coupling; },
          Real{0, 10, 0.25}, "coupling / 4", "", 4)
      .choice("lattice.shape", &Params::shape, shape_names(), Shape::hexagon, "shape")
      .reals("state.temperatures", &Params::temperatures, RealList{0, 1e3, std::vector<double>{1}},
             "temperatures", "K")
      .boolean("run.flag", &Params::flag, Boolean{false}, "flag")
      .text("output.name", &Params::name, String{"out", {}}, "name")
      .integer_or_auto("analysis.blocks", &Params::blocks,
                       Integer{2, 100, std::nullopt, true, true}, 0, "blocks")
      .integer_or_auto("analysis.big", &Params::big,
                       Integer{1, 1LL << 50, std::nullopt, true, true}, 0,
                       "a 64-bit member with an int default")
      .custom("model.double_me", Real{0, 10, 1.5}, "doubled",
              [](const config::Config& c, Params& p) { p.doubled = 2 * c.real("model.double_me"); })
      .unbound("output.extra", Boolean{true}, "read by the app itself");
  return b;
}

TEST(ConfigBinding, DefaultsFillEveryBoundMember) {
  const auto b = bindings();
  const Params p = b.parameters(config::defaults(b.schema()));
  EXPECT_EQ(p.size, 8);
  EXPECT_EQ(p.seed, 3u);
  EXPECT_DOUBLE_EQ(p.inner.coupling, 1.0);  // 0.25 x 4
  EXPECT_EQ(p.shape, Shape::hexagon);
  EXPECT_EQ(p.temperatures, std::vector<double>{1});
  EXPECT_FALSE(p.flag);
  EXPECT_EQ(p.name, "out");
  EXPECT_EQ(p.blocks, 0);  // auto
  EXPECT_DOUBLE_EQ(p.doubled, 3.0);
  EXPECT_TRUE(b.schema().has_key("output.extra"));
}

TEST(ConfigBinding, InputValuesReachTheirMembers) {
  const auto b = bindings();
  const Params p = b.parameters(config::load_string(
      b.schema(),
      "lattice: {size: 12, shape: square}\nmodel: {coupling_over_4: 0.5, double_me: 2}\n"
      "state: {temperatures: [300, 310]}\nrun: {flag: true, seed: 99}\nanalysis: {blocks: 7, big: "
      "1099511627776}\n",
      "<test>", {"output.name=x"}));
  EXPECT_EQ(p.size, 12);
  EXPECT_EQ(p.seed, 99u);
  EXPECT_DOUBLE_EQ(p.inner.coupling, 2.0);
  EXPECT_EQ(p.shape, Shape::square);
  EXPECT_EQ(p.temperatures, (std::vector<double>{300, 310}));
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.blocks, 7);
  EXPECT_EQ(p.big, 1ull << 40);
  EXPECT_DOUBLE_EQ(p.doubled, 4.0);
}

TEST(ConfigBinding, ACustomKeyMayHaveUnits) {
  config::Bindings<Params> b("portamc-test");
  b.custom("model.tripled", Real{0, 10, 1}, "tripled", "kelvin",
           [](const config::Config& c, Params& p) { p.doubled = 3 * c.real("model.tripled"); });
  EXPECT_NE(b.schema().reference_markdown().find("kelvin"), std::string::npos)
      << b.schema().reference_markdown();
  EXPECT_DOUBLE_EQ(b.parameters(config::defaults(b.schema())).doubled, 3.0);
}

TEST(ConfigBinding, AChoiceOutsideTheTableIsRejectedNamingTheChoices) {
  const auto b = bindings();
  try {
    config::load_string(b.schema(), "lattice: {shape: circle}\n", "<test>");
    FAIL() << "accepted an unknown shape";
  } catch (const config::ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("lattice.shape"), std::string::npos) << what;
    EXPECT_NE(what.find("square"), std::string::npos) << what;
    EXPECT_NE(what.find("hexagon"), std::string::npos) << what;
  }
  EXPECT_NE(b.schema().reference_markdown().find("`square`, `hexagon`"), std::string::npos)
      << b.schema().reference_markdown();
}

// A fill reads several keys at once (declared unbound) and runs in declaration order: after
// the bindings before it, before those after it.
TEST(ConfigBinding, AFillSetsMembersFromSeveralKeysInDeclarationOrder) {
  struct Box {
    Shape shape = Shape::square;
    std::vector<int> sides;
    int first_side = -1;
    int later = -1;
  };
  config::Bindings<Box> b("test-app");
  b.choice("shape", &Box::shape, shape_names(), Shape::square, "shape")
      .unbound("side.a", Integer{1, 100, 2}, "side a")
      .unbound("side.b", Integer{1, 100, 3}, "side b; hexagon only")
      .fill([](const config::Config& c, Box& box) {
        box.sides = {static_cast<int>(c.integer("side.a"))};
        if (box.shape == Shape::hexagon) box.sides.push_back(static_cast<int>(c.integer("side.b")));
        box.first_side = box.later;  // `later` is bound after this fill: still its default
      })
      .integer("later", &Box::later, Integer{0, 100, 7}, "bound after the fill");
  EXPECT_FALSE(b.schema().has_key("fill"));
  const Box square = b.parameters(config::defaults(b.schema()));
  EXPECT_EQ(square.sides, std::vector<int>{2});
  EXPECT_EQ(square.first_side, -1);
  EXPECT_EQ(square.later, 7);
  const Box hexagon = b.parameters(
      config::load_string(b.schema(), "shape: hexagon\nside: {a: 5, b: 6}\n", "<test>"));
  EXPECT_EQ(hexagon.sides, (std::vector<int>{5, 6}));
}

TEST(EnumNamesTable, NamesValuesAndRefusals) {
  EXPECT_STREQ(shape_names().name(Shape::hexagon), "hexagon");
  EXPECT_EQ(shape_names().value("square"), Shape::square);
  EXPECT_EQ(shape_names().names(), (std::vector<std::string>{"square", "hexagon"}));
  try {
    shape_names().value("circle");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "'circle' is none of square, hexagon");
  }
  const EnumNames<Shape> incomplete{{"square", Shape::square}};
  EXPECT_THROW(incomplete.name(Shape::hexagon), std::logic_error);
}

}  // namespace
