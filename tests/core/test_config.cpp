// Tests of portamc::config: schema declaration, validation messages (exact text and position),
// overrides, defaults, rules, quoted strings, input files and the YAML round trip.
#include "portamc/config.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace cfg = portamc::config;
namespace fs = std::filesystem;

const char* const kSource = "input/muca.yaml";

// A schema shaped like a real app's: nested sections, every kind, one required key.
cfg::Schema muca_schema() {
  cfg::Schema s("muca");
  s.add("model.L", cfg::Integer{4, 4096, std::nullopt}, "Linear lattice size.", "sites")
      .add("model.J", cfg::Real{-10.0, 10.0, 1.0}, "Coupling constant.", "energy")
      .add("model.periodic", cfg::Boolean{true}, "Use periodic boundaries.")
      .add("sim.sweeps", cfg::Integer{1, 1000000000, 1000}, "Number of sweeps.", "sweeps")
      .add("sim.threads", cfg::Integer{1, 1024, std::nullopt, true, true}, "Worker threads.")
      .add("sim.algorithm", cfg::String{"metropolis", {"metropolis", "heatbath", "wolff"}},
           "Update algorithm.")
      .add("sim.temperatures", cfg::RealList{0.0, 100.0, std::vector<double>{1.0, 2.0}, 1},
           "Temperatures to simulate.", "J/k_B")
      .add("output.file", cfg::String{"out.h5", {}}, "Output file name.")
      .add("seed", cfg::Integer{0, LLONG_MAX, 42}, "Random number seed.");
  return s;
}

// The problems of a load that must fail; fails the test if the load succeeds.
std::vector<cfg::Problem> problems_of(const cfg::Schema& schema, const std::string& yaml,
                                      const std::vector<std::string>& overrides = {}) {
  try {
    cfg::load_string(schema, yaml, kSource, overrides);
  } catch (const cfg::ConfigError& e) {
    return e.problems();
  }
  ADD_FAILURE() << "expected a ConfigError for:\n" << yaml;
  return {};
}

// The single problem of a load that must fail with exactly one.
cfg::Problem one_problem(const cfg::Schema& schema, const std::string& yaml,
                         const std::vector<std::string>& overrides = {}) {
  const auto problems = problems_of(schema, yaml, overrides);
  EXPECT_EQ(problems.size(), 1u);
  if (problems.empty()) return {};
  for (const auto& p : problems) EXPECT_FALSE(p.to_string().empty());
  return problems[0];
}

class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() /
           ("portamc_test_config_" + std::to_string(rd()) + "_" + std::to_string(rd()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

// ---- Defaults ---------------------------------------------------------------------------------

TEST(Config, DefaultsFilledIn) {
  const auto c = cfg::load_string(muca_schema(), "model:\n  L: 16\n", kSource);
  EXPECT_EQ(c.integer("model.L"), 16);
  EXPECT_EQ(c.real("model.J"), 1.0);
  EXPECT_TRUE(c.boolean("model.periodic"));
  EXPECT_EQ(c.integer("sim.sweeps"), 1000);
  EXPECT_EQ(c.integer_or_auto("sim.threads"), std::nullopt);
  EXPECT_EQ(c.string("sim.algorithm"), "metropolis");
  EXPECT_EQ(c.real_list("sim.temperatures"), (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(c.string("output.file"), "out.h5");
  EXPECT_EQ(c.integer("seed"), 42);
  EXPECT_EQ(c.app_name(), "muca");
}

TEST(Config, DefaultsFunction) {
  try {
    cfg::defaults(muca_schema());
    FAIL() << "model.L is required";
  } catch (const cfg::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].key_path, "model.L");
    EXPECT_EQ(std::string(e.what()), "<defaults>: model.L: required key is missing");
  }
  cfg::Schema s("toy");
  s.add("a.b", cfg::Integer{0, 10, 3}, "A number.").add("c", cfg::Boolean{false}, "A flag.");
  const auto c = cfg::defaults(s);
  EXPECT_EQ(c.integer("a.b"), 3);
  EXPECT_FALSE(c.boolean("c"));
}

TEST(Config, EmptyOrNullDocumentMeansAllDefaults) {
  const auto schema = muca_schema();
  for (const std::string text : {"", "\n", "# just a comment\n", "~\n", "null\n", "---\n"}) {
    // model.L is required, so give it on the command line.
    const auto c = cfg::load_string(schema, text, kSource, {"model.L=8"});
    EXPECT_EQ(c.integer("model.L"), 8) << text;
    EXPECT_EQ(c.integer("sim.sweeps"), 1000) << text;
  }
  // A section with all its keys commented out is an empty section, not an error.
  const auto c = cfg::load_string(schema, "model:\n  L: 8\nsim:\n  # sweeps: 5\n", kSource);
  EXPECT_EQ(c.integer("sim.sweeps"), 1000);
}

// ---- One error of each kind, exact text and position --------------------------------------------

TEST(Config, OutOfRangeInteger) {
  const auto p = one_problem(muca_schema(), "# muca input\nmodel:\n  L: -8\n");
  EXPECT_EQ(p.source, kSource);
  EXPECT_EQ(p.line, 3);
  EXPECT_EQ(p.column, 6);
  EXPECT_EQ(p.key_path, "model.L");
  EXPECT_EQ(p.to_string(),
            "input/muca.yaml:3:6: model.L: expected an integer in [4, 4096], got '-8'");
}

TEST(Config, UnknownKeyWithSuggestion) {
  const auto p =
      one_problem(muca_schema(), "model:\n  L: 16\n  J: 1.0\n  periodic: true\n  Lx: 3\n");
  EXPECT_EQ(p.line, 5);
  EXPECT_EQ(p.column, 3);
  EXPECT_EQ(p.key_path, "model.Lx");
  EXPECT_EQ(p.to_string(), "input/muca.yaml:5:3: model.Lx: unknown key (did you mean model.L?)");
}

TEST(Config, UnknownKeySuggestions) {
  const auto schema = muca_schema();
  // Transposed letters in a section name; the section's content is not looked at.
  EXPECT_EQ(one_problem(schema, "model:\n  L: 8\nsmi:\n  sweeps: 3\n").to_string(),
            "input/muca.yaml:3:1: smi: unknown key (did you mean sim?)");
  // The right key in the wrong section.
  EXPECT_EQ(one_problem(schema, "model:\n  L: 8\nsweeps: 3\n").to_string(),
            "input/muca.yaml:3:1: sweeps: unknown key (did you mean sim.sweeps?)");
  // Case only.
  EXPECT_EQ(one_problem(schema, "model:\n  l: 8\n  L: 8\n").message,
            "unknown key (did you mean model.L?)");
  // Nothing close: no suggestion.
  EXPECT_EQ(one_problem(schema, "model:\n  L: 8\n  X: 1\n").to_string(),
            "input/muca.yaml:3:3: model.X: unknown key");
  EXPECT_EQ(one_problem(schema, "model:\n  L: 8\nbanana: 1\n").message, "unknown key");
}

TEST(Config, MissingRequiredKey) {
  const auto p = one_problem(muca_schema(), "sim:\n  sweeps: 10\n");
  EXPECT_EQ(p.line, 0);
  EXPECT_EQ(p.column, 0);
  EXPECT_EQ(p.key_path, "model.L");
  EXPECT_EQ(p.to_string(), "input/muca.yaml: model.L: required key is missing");
}

TEST(Config, SectionThatIsNotAMapping) {
  // One problem only: model.L, inside the broken section, is not reported as missing as well.
  const auto p = one_problem(muca_schema(), "# muca input\nmodel: 16\n");
  EXPECT_EQ(p.line, 2);
  EXPECT_EQ(p.column, 1);
  EXPECT_EQ(p.key_path, "model");
  EXPECT_EQ(p.to_string(),
            "input/muca.yaml:2:1: model: expected a mapping (a section with keys L, J, periodic), "
            "got '16'");
  EXPECT_EQ(one_problem(muca_schema(), "model:\n  - 1\n").message,
            "expected a mapping (a section with keys L, J, periodic), got a list");
}

TEST(Config, TopLevelNotAMapping) {
  const auto p = one_problem(muca_schema(), "\n- 1\n- 2\n");
  EXPECT_EQ(p.line, 2);
  EXPECT_EQ(p.column, 1);
  EXPECT_EQ(p.key_path, "");
  EXPECT_EQ(p.message,
            "expected a mapping of keys (model, sim, output, seed) at the top level, got a list");
}

TEST(Config, YamlSyntaxError) {
  const auto p = one_problem(muca_schema(), "model:\n  L: 8\n  J: [1, 2\nseed: 3\n");
  EXPECT_EQ(p.key_path, "");
  // yaml-cpp notices the unclosed '[' where the next mapping value starts.
  EXPECT_EQ(p.line, 4);
  EXPECT_EQ(p.column, 5);
  EXPECT_EQ(p.to_string(), "input/muca.yaml:4:5: invalid YAML: end of sequence flow not found");

  const auto q = one_problem(muca_schema(), "model:\n  L: 8: 9\n");
  EXPECT_EQ(q.line, 2);
  EXPECT_EQ(q.column, 7);
  EXPECT_EQ(q.message, "invalid YAML: illegal map value");
}

TEST(Config, DuplicateKey) {
  const auto p = one_problem(muca_schema(), "model:\n  L: 8\n  J: 1\n  L: 9\n");
  EXPECT_EQ(p.to_string(), "input/muca.yaml:4:3: model.L: duplicate key (first given at 2:3)");
}

TEST(Config, DottedKeysAreNotExpanded) {
  const auto p = one_problem(muca_schema(), "model.L: 8\n", {"model.L=8"});
  EXPECT_EQ(p.to_string(),
            "input/muca.yaml:1:1: model.L: unknown key (dotted keys are not expanded; nest the "
            "mappings instead)");
}

TEST(Config, MoreThanOneDocument) {
  const auto p = one_problem(muca_schema(), "model:\n  L: 8\n---\nseed: 1\n");
  EXPECT_EQ(p.line, 4);
  EXPECT_EQ(p.message, "expected one YAML document, found 2 (remove the '---' separator)");
}

TEST(Config, EmptyValuePointsAtItsKey) {
  // yaml-cpp places an empty value at the next token (the next line); the key is the right place.
  const auto p = one_problem(muca_schema(), "model:\n  L:\n  J: 2\n");
  EXPECT_EQ(p.to_string(),
            "input/muca.yaml:2:3: model.L: expected an integer in [4, 4096], got no value");
}

// ---- Quoted strings ----------------------------------------------------------------------------
// yaml-cpp 0.7 takes a quote that is never closed for a string running to the end of the file, so
// the keys after it would vanish into the string and silently get their defaults.

std::string unclosed(const std::string& where, char quote, const std::string& until) {
  return std::string(kSource) + ":" + where + ": the " +
         (quote == '"' ? "double-quoted" : "single-quoted") +
         " string that starts here is not closed: no closing " + quote + " before " + until;
}

const char* const kEnd = "the end of the input";

TEST(Config, UnclosedQuoteAtTheEndIsRefused) {
  for (const std::string end : {"\n", ""}) {  // with and without a final line break
    const std::string head = "model:\n  L: 8\noutput:\n  file: ";
    EXPECT_EQ(one_problem(muca_schema(), head + "\"out.h5" + end).to_string(),
              unclosed("4:9", '"', kEnd));
    EXPECT_EQ(one_problem(muca_schema(), head + "'out.h5" + end).to_string(),
              unclosed("4:9", '\'', kEnd));
  }
}

TEST(Config, UnclosedQuoteInTheMiddleIsRefused) {
  const std::string rest = "\nmodel:\n  L: 8\nseed: 3\n";
  for (const char* quote : {"\"", "'"}) {
    const auto p =
        one_problem(muca_schema(), "output:\n  file: " + std::string(quote) + "a.h5" + rest);
    EXPECT_EQ(p.to_string(), unclosed("2:9", quote[0], kEnd));
    EXPECT_EQ(p.key_path, "");
  }
  // An escaped quote closes nothing: \" in a double-quoted string, '' in a single-quoted one.
  EXPECT_EQ(one_problem(muca_schema(), "output:\n  file: \"a\\\"" + rest).to_string(),
            unclosed("2:9", '"', kEnd));
  EXPECT_EQ(one_problem(muca_schema(), "output:\n  file: 'it''s" + rest).to_string(),
            unclosed("2:9", '\'', kEnd));
}

TEST(Config, UnclosedQuoteInAFlowCollectionIsRefused) {
  // yaml-cpp itself fails here, but at the end of the file and about the bracket.
  EXPECT_EQ(one_problem(muca_schema(), "model:\n  L: 8\nsim:\n  temperatures: [1.0, \"2.0, 3.0]\n")
                .to_string(),
            unclosed("4:23", '"', kEnd));
  EXPECT_EQ(one_problem(muca_schema(), "sim:\n  temperatures: [1.0, '2.0, 3.0]\nmodel:\n  L: 8\n")
                .to_string(),
            unclosed("2:23", '\'', kEnd));
  EXPECT_EQ(one_problem(muca_schema(), "model: {L: 8, J: \"1.0}\nseed: 3\n").to_string(),
            unclosed("1:18", '"', kEnd));
  EXPECT_EQ(one_problem(muca_schema(), "seed: 3\nmodel: {L: 8, J: '1.0}").to_string(),
            unclosed("2:18", '\'', kEnd));
}

TEST(Config, UnclosedQuoteBeforeADocumentMarker) {
  EXPECT_EQ(
      one_problem(muca_schema(), "output:\n  file: \"a.h5\n---\nmodel:\n  L: 8\n").to_string(),
      unclosed("2:9", '"', "the document marker on line 3"));
}

TEST(Config, QuotedStringThatSwallowsAKeyIsRefused) {
  // Closed only by the opening quote of a later value: the keys in between would vanish.
  const auto p =
      one_problem(muca_schema(), "sim:\n  algorithm: \"wolff\n  sweeps: 10\nseed: \"5\"\n");
  EXPECT_EQ(p.to_string(),
            "input/muca.yaml:2:14: the double-quoted string that starts here swallows line 3 "
            "('sweeps: 10'), which looks like a key: is the closing \" missing? (a quoted string "
            "continued on further lines must indent them more than its key)");
  // A key to the left of the string's own key, a single quote.
  const auto q =
      one_problem(muca_schema(), "output:\n  file: 'a.h5\nseed: 3\nsim:\n  algorithm: 'wolff'\n");
  EXPECT_EQ(q.line, 2);
  EXPECT_EQ(q.column, 9);
  EXPECT_NE(q.message.find("single-quoted string that starts here swallows line 3 ('seed: 3')"),
            std::string::npos)
      << q.message;
  // In a flow collection.
  const auto r = one_problem(
      muca_schema(), "sim:\n  temperatures: [1.0, \"2.0]\n  sweeps: 10\n  algorithm: \"wolff\"\n");
  EXPECT_EQ(r.line, 2);
  EXPECT_EQ(r.column, 23);
  EXPECT_NE(r.message.find("swallows line 3 ('sweeps: 10')"), std::string::npos) << r.message;
}

TEST(Config, ClosedMultiLineQuotedStringsLoad) {
  const auto file = [](const std::string& value) {
    return cfg::load_string(muca_schema(), "output:\n  file: " + value + "\nmodel:\n  L: 8\n",
                            kSource)
        .string("output.file");
  };
  // Continuation lines indented more than the key, as YAML requires; a line break folds to a
  // space, an empty line to a line break.
  EXPECT_EQ(file("\"run\n    one.h5\""), "run one.h5");
  EXPECT_EQ(file("'it''s\n\n    here'"), "it's\nhere");
  // Escaped quotes, and an escaped line break, which joins the lines without a space.
  EXPECT_EQ(file("\"say \\\"hi\\\" \\\n    there\""), "say \"hi\" there");
  // A continuation line may look like a key if it is indented deeper than the string's key.
  EXPECT_EQ(file("\"a\n    b: c\""), "a b: c");
  EXPECT_EQ(file("\n    \"a\n    b: c\""), "a b: c");  // the value on the line after its key
}

TEST(Config, QuotesThatOpenNoStringAreText) {
  // Quotes inside plain scalars, comments and block scalars open no string.
  const auto c = cfg::load_string(muca_schema(),
                                  "# don't \"quote\" me\n"
                                  "model:\n  L: 8 # it's \"fine\n"
                                  "output:\n  file: it's\"a.h5\n"
                                  "sim:\n  algorithm: 'wolff' # 'c\n",
                                  kSource);
  EXPECT_EQ(c.string("output.file"), "it's\"a.h5");
  EXPECT_EQ(c.string("sim.algorithm"), "wolff");
  const auto b = cfg::load_string(
      muca_schema(), "output:\n  file: |-\n    it's \"a\n    b'\nmodel:\n  L: 8\n", kSource);
  EXPECT_EQ(b.string("output.file"), "it's \"a\nb'");
}

TEST(Config, ShippedInputsHaveNoQuoteProblems) {
  // Every input file of the repository, against a schema without keys: every key is unknown, but
  // no quoted string may be taken for an unclosed one.
  const cfg::Schema empty("none");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PORTAMC_SOURCE_DIR) / "input")) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    try {
      cfg::load_file(empty, entry.path().string());
    } catch (const cfg::ConfigError& e) {
      for (const auto& p : e.problems()) {
        EXPECT_EQ(p.message.find("string that starts here"), std::string::npos) << p.to_string();
      }
    }
  }
  EXPECT_GT(files, 0);
}

// ---- Types ------------------------------------------------------------------------------------

TEST(Config, IntegerRejections) {
  const auto schema = muca_schema();
  const std::string head = "model:\n  L: ";
  struct Case {
    std::string value, got;
  };
  const std::vector<Case> cases = {
      {"3.5", "'3.5'"},
      {"abc", "'abc'"},
      {"true", "'true'"},
      {"1e3", "'1e3' (not an integer literal; write it without '.' or exponent)"},
      {"64.0", "'64.0' (not an integer literal; write it without '.' or exponent)"},
      {"\"16\"", "'16' (quoted, so a string)"},
      {"99999999999999999999", "'99999999999999999999' (too large for a 64-bit integer)"},
      {"0x10", "'0x10'"},
      {"auto", "'auto'"},  // model.L does not allow auto
      {"[8]", "a list"},
      {"{a: 1}", "a mapping"},
  };
  for (const auto& c : cases) {
    const auto p = one_problem(schema, head + c.value + "\n");
    EXPECT_EQ(p.line, 2) << c.value;
    EXPECT_EQ(p.column, 6) << c.value;
    EXPECT_EQ(p.key_path, "model.L") << c.value;
    EXPECT_EQ(p.message, "expected an integer in [4, 4096], got " + c.got) << c.value;
  }
  // Accepted spellings, and the edges of the range (inclusive).
  EXPECT_EQ(cfg::load_string(schema, head + "+16\n", kSource).integer("model.L"), 16);
  EXPECT_EQ(cfg::load_string(schema, head + "4\n", kSource).integer("model.L"), 4);
  EXPECT_EQ(cfg::load_string(schema, head + "4096\n", kSource).integer("model.L"), 4096);
  EXPECT_EQ(cfg::load_string(schema, head + "!!int 12\n", kSource).integer("model.L"), 12);
  // The full 64-bit range, with an open-ended message.
  const auto big = cfg::load_string(schema, "model: {L: 8}\nseed: 9223372036854775807\n", kSource);
  EXPECT_EQ(big.integer("seed"), LLONG_MAX);
  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nseed: -1\n").message,
            "expected an integer >= 0, got '-1'");
  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nseed: 9223372036854775808\n").message,
            "expected an integer >= 0, got '9223372036854775808' (too large for a 64-bit integer)");
}

TEST(Config, Reals) {
  const auto schema = muca_schema();
  const std::string head = "model:\n  L: 8\n  J: ";
  auto J = [&](const std::string& v) {
    return cfg::load_string(schema, head + v + "\n", kSource).real("model.J");
  };
  EXPECT_EQ(J("2"), 2.0);
  EXPECT_EQ(J("-3"), -3.0);
  EXPECT_EQ(J("1.5e-1"), 0.15);
  EXPECT_EQ(J(".5"), 0.5);
  EXPECT_EQ(J("+2.5"), 2.5);
  EXPECT_EQ(J("-10"), -10.0);  // range is inclusive
  EXPECT_EQ(J("10.0"), 10.0);
  for (const std::string bad : {"abc", ".nan", "10.000001", "-.inf", "true", "1e999", "1,5"}) {
    const auto p = one_problem(schema, head + bad + "\n");
    EXPECT_EQ(p.line, 3) << bad;
    EXPECT_EQ(p.column, 6) << bad;
    EXPECT_EQ(p.key_path, "model.J");
    EXPECT_EQ(p.message, "expected a real number in [-10, 10], got '" + bad + "'");
  }
  // Infinity is fine where the range allows it.
  cfg::Schema s("inf");
  s.add("x", cfg::Real{0.0, INFINITY, std::nullopt}, "Anything non-negative.");
  EXPECT_TRUE(std::isinf(cfg::load_string(s, "x: .inf\n", kSource).real("x")));
  EXPECT_EQ(one_problem(s, "x: -1\n").message, "expected a real number >= 0, got '-1'");
}

TEST(Config, Booleans) {
  const auto schema = muca_schema();
  const std::string head = "model:\n  L: 8\n  periodic: ";
  EXPECT_FALSE(cfg::load_string(schema, head + "false\n", kSource).boolean("model.periodic"));
  EXPECT_TRUE(cfg::load_string(schema, head + "True\n", kSource).boolean("model.periodic"));
  for (const std::string bad : {"yes", "no", "on", "1", "0", "y"}) {
    const auto p = one_problem(schema, head + bad + "\n");
    EXPECT_EQ(p.to_string(),
              "input/muca.yaml:3:13: model.periodic: expected true or false, got '" + bad + "'");
  }
  EXPECT_EQ(one_problem(schema, head + "'true'\n").message,
            "expected true or false, got 'true' (quoted, so a string)");
}

TEST(Config, StringChoices) {
  const auto schema = muca_schema();
  const auto p = one_problem(schema, "model: {L: 8}\nsim:\n  algorithm: heatbth\n");
  EXPECT_EQ(p.to_string(),
            "input/muca.yaml:3:14: sim.algorithm: expected one of 'metropolis', 'heatbath', "
            "'wolff', got 'heatbth' (did you mean 'heatbath'?)");
  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nsim:\n  algorithm: swendsen\n").message,
            "expected one of 'metropolis', 'heatbath', 'wolff', got 'swendsen'");
  EXPECT_EQ(one_problem(schema, "model: {L: 8}\noutput:\n  file: [a, b]\n").message,
            "expected a string, got a list");
  // Without choices any scalar is a string, quoted or not.
  const auto c = cfg::load_string(schema, "model: {L: 8}\noutput:\n  file: 123\n", kSource);
  EXPECT_EQ(c.string("output.file"), "123");
}

TEST(Config, RealLists) {
  const auto schema = muca_schema();
  const auto c = cfg::load_string(
      schema, "model: {L: 8}\nsim:\n  temperatures:\n    - 0.5\n    - 3\n", kSource);
  EXPECT_EQ(c.real_list("sim.temperatures"), (std::vector<double>{0.5, 3.0}));

  // One problem per bad element, each at the element, with its index in the key path.
  const auto ps = problems_of(schema, "model: {L: 8}\nsim:\n  temperatures: [1, x, 2, 200]\n");
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].to_string(),
            "input/muca.yaml:3:21: sim.temperatures[1]: expected a real number in [0, 100], got "
            "'x'");
  EXPECT_EQ(ps[1].to_string(),
            "input/muca.yaml:3:27: sim.temperatures[3]: expected a real number in [0, 100], got "
            "'200'");

  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nsim:\n  temperatures: 1.5\n").to_string(),
            "input/muca.yaml:3:17: sim.temperatures: expected a list of real numbers in [0, 100], "
            "got '1.5'");
  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nsim:\n  temperatures: []\n").message,
            "expected a list of real numbers in [0, 100] with at least 1 element, got 0");
}

TEST(Config, Auto) {
  const auto schema = muca_schema();
  const auto def = cfg::load_string(schema, "model: {L: 8}\n", kSource);
  EXPECT_EQ(def.integer_or_auto("sim.threads"), std::nullopt);
  EXPECT_THROW(def.integer("sim.threads"), std::logic_error);

  const auto eight = cfg::load_string(schema, "model: {L: 8}\nsim: {threads: 8}\n", kSource);
  EXPECT_EQ(eight.integer("sim.threads"), 8);
  EXPECT_EQ(eight.integer_or_auto("sim.threads"), 8);
  // integer_or_auto works on keys that cannot be auto, too.
  EXPECT_EQ(eight.integer_or_auto("model.L"), 8);

  const auto back =
      cfg::load_string(schema, "model: {L: 8}\nsim: {threads: 8}\n", kSource, {"sim.threads=auto"});
  EXPECT_EQ(back.integer_or_auto("sim.threads"), std::nullopt);

  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nsim: {threads: Auto}\n").message,
            "expected an integer in [1, 1024] or 'auto', got 'Auto'");
  EXPECT_EQ(one_problem(schema, "model: {L: 8}\nsim: {threads: \"auto\"}\n").message,
            "expected an integer in [1, 1024] or 'auto', got 'auto' (quoted, so a string)");
}

// ---- Many problems at once ----------------------------------------------------------------------

TEST(Config, AllProblemsReportedTogether) {
  const std::string text =
      "model:\n"                   // 1
      "  L: 2\n"                   // 2  out of range
      "  J: strong\n"              // 3  not a real
      "  periodic: yes\n"          // 4  not a boolean
      "sim:\n"                     // 5
      "  sweeps: 1e6\n"            // 6  not an integer literal
      "  algoritm: wolff\n"        // 7  unknown, close to algorithm
      "  temperatures: [1, -2]\n"  // 8  element out of range
      "output: out.h5\n"           // 9  section given a scalar
      "colour: blue\n";            // 10 unknown
  const auto ps = problems_of(muca_schema(), text, {"seed=-5", "model.T=1"});
  std::vector<std::string> lines;
  for (const auto& p : ps) lines.push_back(p.to_string());
  const std::vector<std::string> expected = {
      "input/muca.yaml:2:6: model.L: expected an integer in [4, 4096], got '2'",
      "input/muca.yaml:3:6: model.J: expected a real number in [-10, 10], got 'strong'",
      "input/muca.yaml:4:13: model.periodic: expected true or false, got 'yes'",
      "input/muca.yaml:6:11: sim.sweeps: expected an integer in [1, 1000000000], got '1e6' (not "
      "an integer literal; write it without '.' or exponent)",
      "input/muca.yaml:7:3: sim.algoritm: unknown key (did you mean sim.algorithm?)",
      "input/muca.yaml:8:21: sim.temperatures[1]: expected a real number in [0, 100], got '-2'",
      "input/muca.yaml:9:1: output: expected a mapping (a section with keys file), got 'out.h5'",
      "input/muca.yaml:10:1: colour: unknown key",
      "--set seed=-5: seed: expected an integer >= 0, got '-5'",
      "--set model.T=1: unknown key model.T",
  };
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(ps.size(), 10u);

  // what() lists them all, one per line.
  try {
    cfg::load_string(muca_schema(), text, kSource, {"seed=-5", "model.T=1"});
    FAIL();
  } catch (const cfg::ConfigError& e) {
    std::string joined;
    for (const auto& l : expected) joined += (joined.empty() ? "" : "\n") + l;
    EXPECT_EQ(std::string(e.what()), joined);
  }
}

// ---- Overrides ----------------------------------------------------------------------------------

TEST(Config, OverridesValid) {
  const auto c = cfg::load_string(
      muca_schema(), "model:\n  L: 16\n  J: 2\n", kSource,
      {"model.L=64", "model.periodic=false", "sim.temperatures=[0.5, 1.5]", "sim.algorithm=wolff",
       "output.file=run 1/out.h5", "model.J=-0.25", "model.L=32"});
  EXPECT_EQ(c.integer("model.L"), 32);  // the last override wins
  EXPECT_FALSE(c.boolean("model.periodic"));
  EXPECT_EQ(c.real_list("sim.temperatures"), (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(c.string("sim.algorithm"), "wolff");
  EXPECT_EQ(c.string("output.file"), "run 1/out.h5");
  EXPECT_EQ(c.real("model.J"), -0.25);
}

TEST(Config, OverrideReplacesAnInvalidFileValue) {
  const auto c = cfg::load_string(muca_schema(), "model:\n  L: -8\n", kSource, {"model.L=8"});
  EXPECT_EQ(c.integer("model.L"), 8);
}

TEST(Config, OverridesInvalid) {
  const auto schema = muca_schema();
  const std::string ok = "model:\n  L: 16\n";
  const auto bad = one_problem(schema, ok, {"model.L=abc"});
  EXPECT_EQ(bad.source, "--set model.L=abc");
  EXPECT_EQ(bad.line, 0);
  EXPECT_EQ(bad.key_path, "model.L");
  EXPECT_EQ(bad.to_string(),
            "--set model.L=abc: model.L: expected an integer in [4, 4096], got 'abc'");

  EXPECT_EQ(one_problem(schema, ok, {"model.Lx=3"}).to_string(),
            "--set model.Lx=3: unknown key model.Lx (did you mean model.L?)");
  EXPECT_EQ(one_problem(schema, ok, {"model.L"}).to_string(),
            "--set model.L: expected KEY=VALUE, e.g. --set model.L=<integer>");
  EXPECT_EQ(one_problem(schema, ok, {"=3"}).to_string(),
            "--set =3: expected KEY=VALUE, e.g. --set model.L=<integer>");
  EXPECT_EQ(one_problem(schema, ok, {"model=3"}).to_string(),
            "--set model=3: model: is a section, not a key; set one of its keys (L, J, periodic)");
  EXPECT_EQ(one_problem(schema, ok, {"model.L="}).to_string(),
            "--set model.L=: model.L: expected an integer in [4, 4096], got no value");
  EXPECT_EQ(one_problem(schema, ok, {"sim.temperatures=[1, oops]"}).to_string(),
            "--set sim.temperatures=[1, oops]: sim.temperatures[1]: expected a real number in "
            "[0, 100], got 'oops'");
  EXPECT_EQ(one_problem(schema, ok, {"sim.temperatures=[1, 2"}).to_string(),
            "--set sim.temperatures=[1, 2: sim.temperatures: cannot parse the value as YAML: end "
            "of sequence flow not found");
  // An override supplies a required key missing from the file.
  EXPECT_EQ(cfg::load_string(schema, "", kSource, {"model.L=4"}).integer("model.L"), 4);
}

// ---- Files --------------------------------------------------------------------------------------

TEST_F(ConfigFiles, LoadFile) {
  const std::string path = write("muca.yaml", "model:\n  L: 32\n");
  const auto c = cfg::load_file(muca_schema(), path, {"sim.sweeps=7"});
  EXPECT_EQ(c.integer("model.L"), 32);
  EXPECT_EQ(c.integer("sim.sweeps"), 7);

  const std::string bad = write("bad.yaml", "model:\n  L: 32\n  Lx: 3\n");
  try {
    cfg::load_file(muca_schema(), bad);
    FAIL();
  } catch (const cfg::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].source, bad);
    EXPECT_EQ(std::string(e.what()), bad + ":3:3: model.Lx: unknown key (did you mean model.L?)");
  }
}

TEST_F(ConfigFiles, UnreadableFile) {
  const std::string missing = (dir_ / "x.yaml").string();
  try {
    cfg::load_file(muca_schema(), missing, {"model.Lx=1"});
    FAIL();
  } catch (const cfg::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].line, 0);
    EXPECT_EQ(std::string(e.what()),
              "cannot read input file '" + missing + "': No such file or directory");
  }
  try {
    cfg::load_file(muca_schema(), dir_.string());
    FAIL();
  } catch (const cfg::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(std::string(e.what()), "cannot read input file '" + dir_.string() +
                                         "': it is a directory, not a regular file");
  }
}

// Runs load_file(path) in a child process, which exits 0 if it fails with exactly `expected`. The
// child runs under a time and a memory limit, so that a reader that waits for a FIFO's writer or
// reads /dev/zero without end fails the test instead of hanging it or exhausting the machine.
[[noreturn]] void load_in_child(const std::string& path, const std::string& expected) {
  alarm(10);
  long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  if (pages > 0) {
    const rlim_t limit = static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) + (rlim_t{256} << 20);
    const rlimit r{limit, limit};
    setrlimit(RLIMIT_AS, &r);
  }
  try {
    cfg::load_file(muca_schema(), path);
    std::fprintf(stderr, "loaded without an error\n");
  } catch (const cfg::ConfigError& e) {
    if (e.what() == expected) std::_Exit(0);
    std::fprintf(stderr, "wrong message: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "not a ConfigError: %s\n", e.what());
  }
  std::_Exit(1);
}

void expect_refused(const std::string& path, const std::string& why) {
  EXPECT_EXIT(load_in_child(path, "cannot read input file '" + path + "': " + why),
              ::testing::ExitedWithCode(0), "")
      << path;
}

TEST_F(ConfigFiles, NonRegularFilesAreRefused) {
  const std::string not_regular = ", not a regular file";
  // A FIFO without a writer: opening it to read would wait for one forever.
  const std::string fifo = (dir_ / "input.yaml").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  expect_refused(fifo, "it is a FIFO (named pipe)" + not_regular);
  expect_refused(dir_.string(), "it is a directory" + not_regular);
  // /dev/zero never ends: read whole, it would exhaust memory. A symbolic link is followed: to a
  // device it is refused, to a regular file it loads.
  if (fs::exists("/dev/zero")) {
    expect_refused("/dev/zero", "it is a character device" + not_regular);
    fs::create_symlink("/dev/zero", dir_ / "zero.yaml");
    expect_refused((dir_ / "zero.yaml").string(), "it is a character device" + not_regular);
  }
  fs::create_symlink(write("real.yaml", "model:\n  L: 12\n"), dir_ / "link.yaml");
  EXPECT_EQ(cfg::load_file(muca_schema(), (dir_ / "link.yaml").string()).integer("model.L"), 12);
}

TEST_F(ConfigFiles, SizeLimit) {
  // Exactly 1 MiB loads (padded with a comment); one byte more is refused before it is read.
  const std::size_t mib = std::size_t{1} << 20;
  std::string text = "model:\n  L: 8\n#";
  text.resize(mib, 'x');
  EXPECT_EQ(cfg::load_file(muca_schema(), write("mib.yaml", text)).integer("model.L"), 8);
  const std::string big = write("big.yaml", text + "x");
  expect_refused(big, "it is 1048577 bytes; input files are limited to 1 MiB (1048576 bytes)");
}

TEST_F(ConfigFiles, EmptyFileMeansDefaults) {
  cfg::Schema s("toy");
  s.add("n", cfg::Integer{0, 10, 5}, "A number.");
  EXPECT_EQ(cfg::load_file(s, write("empty.yaml", "")).integer("n"), 5);
}

// ---- Round trip ---------------------------------------------------------------------------------

// YAML double-quoted form of any string, written independently of the code under test.
std::string double_quoted(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '\n') {
      q += "\\n";
    } else if (ch == '\t') {
      q += "\\t";
    } else {
      if (ch == '"' || ch == '\\') q += '\\';
      q += ch;
    }
  }
  return q + "\"";
}

TEST(Config, ToYamlRoundTrip) {
  cfg::Schema s = muca_schema();
  s.add("extra.name", cfg::String{std::nullopt, {}}, "A free-form name.")
      .add("extra.x", cfg::Real{-1e300, 1e300, std::nullopt}, "Any real.");
  // Strings that YAML would read as something else, or that need escapes, if written plainly.
  const std::vector<std::string> names = {
      "plain",  "with space",     "true",     "null",       "123",          "1.5",
      "",       "a: b",           "#hash",    "quote\"s",   "back\\slash",  "new\nline",
      "tab\tx", "\xc3\xbcnicode", "-dash",    "~",          "[not a list]", "yes",
      "auto",   "a/b.c-d_e",      " padded ", "x # comment"};
  // Reals whose shortest representation is long, tiny, huge, negative zero, integral.
  const std::vector<double> xs = {0.1 + 0.2,           1e-300, -0.0, 1e20,
                                  123456789.123456789, -1e300, 5.0,  1.0 / 3.0};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double x = xs[i % xs.size()];
    char xbuf[64];
    std::snprintf(xbuf, sizeof xbuf, "%.17g", x);
    const std::string input = "model: {L: 8}\nextra:\n  name: " + double_quoted(names[i]) +
                              "\n  x: " + xbuf + "\nsim:\n  threads: " + (i % 2 ? "auto" : "3") +
                              "\n  temperatures: [0.30000000000000004, 1e-300, 99.99]\n";
    const auto first = cfg::load_string(s, input, "<input>");
    ASSERT_EQ(first.string("extra.name"), names[i]);

    const std::string out = first.to_yaml();
    const auto second = cfg::load_string(s, out, "<to_yaml>");
    EXPECT_EQ(second.to_yaml(), out);
    EXPECT_EQ(second.string("extra.name"), names[i]) << out;
    const double back = second.real("extra.x");
    EXPECT_EQ(std::memcmp(&back, &x, sizeof x), 0) << out;  // bit-identical, sign of zero too
    EXPECT_EQ(second.real_list("sim.temperatures"),
              (std::vector<double>{0.30000000000000004, 1e-300, 99.99}));
    EXPECT_EQ(second.integer_or_auto("sim.threads"), first.integer_or_auto("sim.threads"));
    // The annotated form parses to the same values as well.
    EXPECT_EQ(cfg::load_string(s, first.to_yaml(true), "<annotated>").to_yaml(), out);
  }
}

TEST(Config, ToYamlLayout) {
  const auto c = cfg::load_string(muca_schema(), "model:\n  L: 16\n", kSource);
  EXPECT_EQ(c.to_yaml(),
            "model:\n"
            "  L: 16\n"
            "  J: 1.0\n"
            "  periodic: true\n"
            "sim:\n"
            "  sweeps: 1000\n"
            "  threads: auto\n"
            "  algorithm: metropolis\n"
            "  temperatures: [1.0, 2.0]\n"
            "output:\n"
            "  file: out.h5\n"
            "seed: 42\n");
  const std::string annotated = c.to_yaml(true);
  EXPECT_NE(annotated.find("  L: 16  # Linear lattice size. [sites]\n"), std::string::npos)
      << annotated;
}

TEST(Config, InterleavedDeclarationsStayGrouped) {
  cfg::Schema s("toy");
  s.add("a.x", cfg::Integer{0, 9, 1}, "X.")
      .add("b.y", cfg::Integer{0, 9, 2}, "Y.")
      .add("a.z", cfg::Integer{0, 9, 3}, "Z.");
  EXPECT_EQ(cfg::defaults(s).to_yaml(), "a:\n  x: 1\n  z: 3\nb:\n  y: 2\n");
  EXPECT_EQ(s.keys(), (std::vector<std::string>{"a.x", "a.z", "b.y"}));
}

// ---- Reference --------------------------------------------------------------------------------

TEST(Config, ReferenceMarkdown) {
  const auto schema = muca_schema();
  const std::string md = schema.reference_markdown();
  for (const auto& key : schema.keys()) {
    EXPECT_NE(md.find("| `" + key + "` |"), std::string::npos) << key;
  }
  EXPECT_NE(md.find("| Key | Type | Range / choices | Default | Units | Description |"),
            std::string::npos);
  EXPECT_NE(md.find("| `model.L` | integer | [4, 4096] | *required* | sites | Linear lattice "
                    "size. |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `sim.threads` | integer or `auto` | [1, 1024] | `auto` |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`metropolis`, `heatbath`, `wolff`"), std::string::npos);
  EXPECT_NE(md.find("| `seed` | integer | >= 0 | `42` |"), std::string::npos) << md;
}

// ---- Rules ------------------------------------------------------------------------------------

TEST(Config, CheckRules) {
  int runs = 0;
  cfg::Schema schema = muca_schema();
  schema
      .check(
          [&runs](const cfg::Config& c) -> std::optional<std::string> {
            ++runs;
            if (c.integer("sim.sweeps") % c.integer("model.L") != 0) {
              return "must be a multiple of model.L (" + std::to_string(c.integer("model.L")) + ")";
            }
            return std::nullopt;
          },
          "sim.sweeps")
      .check(
          [](const cfg::Config& c) -> std::optional<std::string> {
            if (c.string("sim.algorithm") == "wolff" && !c.boolean("model.periodic")) {
              return "the wolff algorithm needs periodic boundaries";
            }
            return std::nullopt;
          },
          "");

  EXPECT_EQ(cfg::load_string(schema, "model: {L: 10}\nsim:\n  sweeps: 100\n", kSource)
                .integer("sim.sweeps"),
            100);
  EXPECT_EQ(runs, 1);

  // Both rules fail: the first points at the value in the file, the second has no position.
  const auto ps = problems_of(
      schema, "model:\n  L: 10\n  periodic: false\nsim:\n  sweeps: 105\n  algorithm: wolff\n");
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].to_string(),
            "input/muca.yaml:5:11: sim.sweeps: must be a multiple of model.L (10)");
  EXPECT_EQ(ps[1].to_string(), "input/muca.yaml: the wolff algorithm needs periodic boundaries");

  // A value from an override is blamed on the override; a default has no position.
  EXPECT_EQ(one_problem(schema, "model: {L: 10}\n", {"sim.sweeps=15"}).to_string(),
            "--set sim.sweeps=15: sim.sweeps: must be a multiple of model.L (10)");
  EXPECT_EQ(one_problem(schema, "model: {L: 7}\n").to_string(),
            "input/muca.yaml: sim.sweeps: must be a multiple of model.L (7)");

  // Rules never see invalid input.
  runs = 0;
  problems_of(schema, "model: {L: 1}\n");
  EXPECT_EQ(runs, 0);
}

TEST(Config, CheckRuleOnSection) {
  cfg::Schema schema = muca_schema();
  schema.check([](const cfg::Config&) { return std::optional<std::string>("bad model"); }, "model");
  EXPECT_EQ(one_problem(schema, "# c\nmodel:\n  L: 10\n").to_string(),
            "input/muca.yaml:2:1: model: bad model");
}

// ---- Programming errors -----------------------------------------------------------------------

TEST(Config, AccessorLogicErrors) {
  const auto c = cfg::load_string(muca_schema(), "model: {L: 8}\n", kSource);
  EXPECT_THROW(c.integer("model.Lx"), std::logic_error);
  EXPECT_THROW(c.integer("model"), std::logic_error);
  EXPECT_THROW(c.real("model.L"), std::logic_error);
  EXPECT_THROW(c.string("model.J"), std::logic_error);
  EXPECT_THROW(c.boolean("seed"), std::logic_error);
  EXPECT_THROW(c.real_list("output.file"), std::logic_error);
  EXPECT_THROW(cfg::Config().integer("model.L"), std::logic_error);
}

TEST(Config, SchemaLogicErrors) {
  auto fresh = [] {
    cfg::Schema s("bad");
    s.add("a.b", cfg::Integer{0, 9, 1}, "B.");
    return s;
  };
  EXPECT_THROW(fresh().add("a.b", cfg::Integer{0, 9, 1}, "Again."), std::logic_error);
  EXPECT_THROW(fresh().add("a", cfg::Integer{0, 9, 1}, "Section as key."), std::logic_error);
  EXPECT_THROW(fresh().add("a.b.c", cfg::Integer{0, 9, 1}, "Key as section."), std::logic_error);
  EXPECT_THROW(fresh().add("a..c", cfg::Integer{0, 9, 1}, "Empty part."), std::logic_error);
  EXPECT_THROW(fresh().add("a.1x", cfg::Integer{0, 9, 1}, "Digit first."), std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::Integer{0, 9, 10}, "Default out of range."), std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::Integer{9, 0, std::nullopt}, "min > max."), std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::Integer{0, 9, 1, false, true}, "auto without allow."),
               std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::Real{0, 1, 2.0}, "Default out of range."), std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::String{"x", {"a", "b"}}, "Default not a choice."),
               std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::RealList{0, 1, std::vector<double>{}, 1}, "Too short."),
               std::logic_error);
  EXPECT_THROW(fresh().add("c", cfg::Boolean{true}, ""), std::logic_error);
  EXPECT_THROW(fresh().check([](const cfg::Config&) { return std::optional<std::string>(); }, "zz"),
               std::logic_error);
}

TEST(Config, ConfigKeepsItsSchema) {
  cfg::Schema s("toy");
  s.add("n", cfg::Integer{0, 10, 5}, "A number.");
  const auto c = cfg::defaults(s);
  s.add("m", cfg::Integer{0, 10, 6}, "Another number.");  // copy-on-write: c is unaffected
  EXPECT_EQ(c.to_yaml(), "n: 5\n");
  EXPECT_THROW(c.integer("m"), std::logic_error);
  EXPECT_EQ(cfg::defaults(s).integer("m"), 6);
}

}  // namespace
