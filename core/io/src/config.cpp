#include "portamc/config.hpp"

#include "yaml_quotes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <tuple>
#include <utility>
#include <variant>

namespace portamc::config {
namespace detail {

// Index order matches the Kind enum and the Value variant below, so spec.index() is the kind.
using Spec = std::variant<Integer, Real, Boolean, String, RealList>;
enum Kind : std::size_t { kInteger = 0, kReal = 1, kBoolean = 2, kString = 3, kRealList = 4 };

// Integer values are optional because `auto` (nullopt) is a value in its own right.
using Value =
    std::variant<std::optional<long long>, double, bool, std::string, std::vector<double>>;

struct Entry {
  std::string path;
  Spec spec;
  std::string doc;
  std::string units;
};

struct RuleEntry {
  Schema::Rule rule;
  std::string key_path;
};

struct SchemaData {
  std::string app;
  std::vector<Entry> entries;  // declaration order
  std::map<std::string, std::size_t> leaf_index;
  std::set<std::string> sections;
  std::vector<RuleEntry> rules;
};

// Where a value came from, so that problems found later (by rules) can still point at it.
struct Origin {
  std::string source;
  int line = 0;
  int column = 0;
};

struct ConfigData {
  std::shared_ptr<const SchemaData> schema;
  std::vector<Value> values;    // parallel to schema->entries
  std::vector<Origin> origins;  // parallel to schema->entries
};

struct Access {
  static const SchemaData& schema(const Schema& s) { return *s.data_; }
  static std::shared_ptr<const SchemaData> share(const Schema& s) { return s.data_; }
  static Config make(std::shared_ptr<const ConfigData> d) { return Config(std::move(d)); }
};

}  // namespace detail

namespace {

using detail::Entry;
using detail::Origin;
using detail::SchemaData;
using detail::Value;

const char* kind_name(std::size_t kind) {
  switch (kind) {
    case detail::kInteger:
      return "integer";
    case detail::kReal:
      return "real";
    case detail::kBoolean:
      return "boolean";
    case detail::kString:
      return "string";
    default:
      return "list of reals";
  }
}

[[noreturn]] void schema_error(const std::string& app, const std::string& what) {
  throw std::logic_error("portamc::config schema '" + app + "': " + what);
}

// ---- Text helpers -----------------------------------------------------------------------------

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool valid_component(const std::string& c) {
  if (c.empty()) return false;
  const auto first = static_cast<unsigned char>(c[0]);
  if (!(std::isalpha(first) || c[0] == '_')) return false;
  return std::all_of(c.begin(), c.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u < 128 && (std::isalnum(u) || ch == '_' || ch == '-');
  });
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Optimal-string-alignment distance: like Levenshtein but a swap of two neighbours ("modle")
// costs 1, which is the most common typo in hand-written keys.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string last_component(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// Closest candidate to `word`, or "" if none is close enough to be a plausible typo. The
// threshold grows with the length of the word but a one-letter key never matches another
// one-letter key: suggesting "L" for "X" would be noise, not help.
std::string closest(const std::string& word, const std::string& word_tail,
                    const std::vector<std::string>& candidates) {
  const std::string lw = lower(word);
  const std::size_t allowed =
      std::min<std::size_t>(3, std::max<std::size_t>(1, word_tail.size() / 3));
  std::string best;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(lw, lower(c));
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (best.empty() || best_d > allowed || (best_d > 0 && best_d >= word_tail.size())) return "";
  return best;
}

std::string format_integer(long long v) {
  return std::to_string(v);
}

// Shortest text that reads back to the same double (std::to_chars guarantees the round trip).
std::string format_real(double v) {
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// As format_real, but an integral value keeps a ".0" so a reader sees the key is a real.
std::string format_real_yaml(double v) {
  std::string s = format_real(v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string format_real_list(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ", ";
    s += format_real_yaml(v[i]);
  }
  return s + "]";
}

// " in [a, b]", " >= a", " <= b" or "" — open ends are not worth mentioning.
std::string integer_range(long long min, long long max) {
  const bool lo = min != std::numeric_limits<long long>::min();
  const bool hi = max != std::numeric_limits<long long>::max();
  if (lo && hi) return " in [" + format_integer(min) + ", " + format_integer(max) + "]";
  if (lo) return " >= " + format_integer(min);
  if (hi) return " <= " + format_integer(max);
  return "";
}

std::string real_range(double min, double max) {
  const bool lo = !(std::isinf(min) && min < 0);
  const bool hi = !(std::isinf(max) && max > 0);
  if (lo && hi) return " in [" + format_real(min) + ", " + format_real(max) + "]";
  if (lo) return " >= " + format_real(min);
  if (hi) return " <= " + format_real(max);
  return "";
}

// Scalar text for a one-line message: control characters escaped, long values shortened.
std::string quote_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else {
      out += c;
    }
  }
  if (out.size() > 60) out = out.substr(0, 57) + "...";
  return "'" + out + "'";
}

std::string quote_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += ", ";
    s += quote_text(items[i]);
  }
  return s;
}

// yaml-cpp gives "!" as the tag of every non-plain scalar (quoted or block).
bool is_plain(const YAML::Node& n) {
  return n.Tag() == "?";
}

// What the user wrote, for "got ...".
std::string describe(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null:
      return "no value";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      if (n.Tag() == "!") return quote_text(n.Scalar()) + " (quoted, so a string)";
      return quote_text(n.Scalar());
    default:
      return "nothing";
  }
}

// ---- Literal parsing --------------------------------------------------------------------------
// Both follow the YAML 1.2 core schema (decimal only), independent of the C locale.

enum class IntParse { ok, not_integer, overflow };

// [-+]?[0-9]+
IntParse parse_integer(const std::string& text, long long& out) {
  // from_chars takes a '-' but not a '+'.
  const char* first = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  const char* last = text.data() + text.size();
  const char* digits = first < last && *first == '-' && first == text.data() ? first + 1 : first;
  if (digits == last) return IntParse::not_integer;
  for (const char* p = digits; p < last; ++p) {
    if (!std::isdigit(static_cast<unsigned char>(*p))) return IntParse::not_integer;
  }
  const auto res = std::from_chars(first, last, out);
  if (res.ec == std::errc::result_out_of_range) return IntParse::overflow;
  return res.ec == std::errc() && res.ptr == last ? IntParse::ok : IntParse::not_integer;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, [-+]?\.(inf|Inf|INF), \.(nan|NaN|NAN).
// A literal beyond the range of double (1e999, 1e-400) is rejected rather than silently turned
// into infinity or zero.
bool parse_real(const std::string& text, double& out) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  const std::string rest = text.substr(i);
  if (rest == ".inf" || rest == ".Inf" || rest == ".INF") {
    out = negative ? -std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::infinity();
    return true;
  }
  if (i == 0 && (rest == ".nan" || rest == ".NaN" || rest == ".NAN")) {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  auto digits = [&](std::size_t& k) {
    const std::size_t from = k;
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
    return k - from;
  };
  std::size_t k = i;
  const std::size_t int_digits = digits(k);
  std::size_t frac_digits = 0;
  if (k < text.size() && text[k] == '.') {
    ++k;
    frac_digits = digits(k);
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (k < text.size() && (text[k] == 'e' || text[k] == 'E')) {
    ++k;
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
    if (digits(k) == 0) return false;
  }
  if (k != text.size()) return false;
  const char* first = text.data() + (text[0] == '+' ? 1 : 0);  // from_chars rejects '+'
  const auto res = std::from_chars(first, text.data() + text.size(), out);
  return res.ec == std::errc() && res.ptr == text.data() + text.size();
}

// ---- YAML output ------------------------------------------------------------------------------

// Plain only when no YAML reader (1.1 or 1.2) could take it for anything but this string;
// everything else is double-quoted, with escapes yaml-cpp reads back.
std::string yaml_string(const std::string& s) {
  static const std::set<std::string> special = {"y",   "n",    "yes",   "no",   "on",
                                                "off", "true", "false", "null", "~"};
  bool plain =
      !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_' || s[0] == '/');
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (!(u < 128 && (std::isalnum(u) || c == '_' || c == '.' || c == '/' || c == '-'))) {
      plain = false;
    }
  }
  if (plain && special.count(lower(s)) == 0) return s;
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string value_yaml(const Value& v) {
  switch (v.index()) {
    case detail::kInteger: {
      const auto& i = std::get<detail::kInteger>(v);
      return i ? format_integer(*i) : "auto";
    }
    case detail::kReal:
      return format_real_yaml(std::get<detail::kReal>(v));
    case detail::kBoolean:
      return std::get<detail::kBoolean>(v) ? "true" : "false";
    case detail::kString:
      return yaml_string(std::get<detail::kString>(v));
    default:
      return format_real_list(std::get<detail::kRealList>(v));
  }
}

// ---- Schema structure -------------------------------------------------------------------------

// Entries regrouped as a tree: a section's keys stay together even when declared interleaved
// with other sections (YAML mappings cannot repeat a key), in order of first appearance.
struct TreeNode {
  std::string name;
  std::string path;
  int entry = -1;  // leaf: index into SchemaData::entries
  std::vector<TreeNode> children;
};

TreeNode build_tree(const SchemaData& s) {
  TreeNode root;
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    TreeNode* node = &root;
    for (const auto& part : split_path(s.entries[i].path)) {
      auto it = std::find_if(node->children.begin(), node->children.end(),
                             [&](const TreeNode& c) { return c.name == part; });
      if (it == node->children.end()) {
        TreeNode child;
        child.name = part;
        child.path = node->path.empty() ? part : node->path + "." + part;
        node->children.push_back(std::move(child));
        it = node->children.end() - 1;
      }
      node = &*it;
    }
    node->entry = static_cast<int>(i);
  }
  return root;
}

void collect_order(const TreeNode& node, std::vector<std::size_t>& leaves,
                   std::vector<std::string>* all_paths) {
  for (const auto& c : node.children) {
    if (all_paths) all_paths->push_back(c.path);
    if (c.entry >= 0) {
      leaves.push_back(static_cast<std::size_t>(c.entry));
    } else {
      collect_order(c, leaves, all_paths);
    }
  }
}

std::vector<std::size_t> output_order(const SchemaData& s) {
  std::vector<std::size_t> leaves;
  collect_order(build_tree(s), leaves, nullptr);
  return leaves;
}

std::vector<std::string> section_children(const SchemaData& s, const std::string& section) {
  std::vector<std::string> names;
  const std::string prefix = section.empty() ? "" : section + ".";
  for (const auto& e : s.entries) {
    if (e.path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = e.path.substr(prefix.size());
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), child) == names.end()) names.push_back(child);
  }
  return names;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 8; ++i) s += (i > 0 ? ", " : "") + names[i];
  if (names.size() > 8) s += ", ...";
  return s;
}

// " (did you mean x?)" for an unknown path, or "".
std::string suggestion(const SchemaData& s, const std::string& unknown) {
  std::vector<std::size_t> leaves;
  std::vector<std::string> paths;
  collect_order(build_tree(s), leaves, &paths);
  const std::string tail = last_component(unknown);
  std::string best = closest(unknown, tail, paths);
  if (best.empty()) {
    // A key written in the wrong section ("sweeps" at top level instead of under "sim") is far
    // from the right path by edit distance but has the right last component.
    std::vector<std::string> same_tail;
    for (const auto& p : paths) {
      if (lower(last_component(p)) == lower(tail)) same_tail.push_back(p);
    }
    if (same_tail.size() == 1) best = same_tail[0];
  }
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

void check_default_real(const std::string& app, const std::string& path, double v, double min,
                        double max) {
  if (std::isnan(v) || v < min || v > max) {
    schema_error(app, path + ": default " + format_real(v) + " is outside" + real_range(min, max));
  }
}

// ---- Validation -------------------------------------------------------------------------------

struct Loc {
  int line = 0;
  int column = 0;
};

Loc loc(const YAML::Mark& m) {
  if (m.is_null() || m.line < 0) return {};
  return {m.line + 1, m.column + 1};
}

// yaml-cpp places an empty value ("L:" with nothing after it) at the next token, often on a
// later line; the key is then the better place to point at.
Loc value_loc(const YAML::Node& value, const YAML::Node& key) {
  const YAML::Mark vm = value.Mark();
  if (vm.is_null()) return loc(key.Mark());
  if (value.IsNull() && key.IsDefined() && vm.line != key.Mark().line) return loc(key.Mark());
  return loc(vm);
}

// One value as found in the input, before conversion.
struct Raw {
  bool present = false;
  YAML::Node node;
  Origin origin;
  int bucket = 0;  // 0 = the input file, k+1 = override k
};

class Validator {
 public:
  Validator(const SchemaData& schema, std::string source, std::size_t n_overrides)
      : s_(schema),
        source_(std::move(source)),
        raw_(schema.entries.size()),
        buckets_(n_overrides + 1) {}

  void document(const std::string& yaml) {
    // Checked before yaml-cpp reads the text: it would take an unclosed quote for a string that
    // ends with the file, and its own errors, if any, are only consequences of the quote.
    const std::vector<QuoteProblem> quotes = quoted_string_problems(yaml);
    if (!quotes.empty()) {
      for (const QuoteProblem& q : quotes)
        add(0, Problem{source_, q.line, q.column, "", q.message});
      unusable_ = true;
      return;
    }
    std::vector<YAML::Node> docs;
    try {
      docs = YAML::LoadAll(yaml);
    } catch (const YAML::ParserException& e) {
      const Loc l = loc(e.mark);
      add(0, {source_, l.line, l.column, "", "invalid YAML: " + e.msg});
      unusable_ = true;
      return;
    } catch (const YAML::Exception& e) {
      add(0, {source_, 0, 0, "", std::string("invalid YAML: ") + e.what()});
      unusable_ = true;
      return;
    }
    if (docs.size() > 1) {
      const Loc l = loc(docs[1].Mark());
      add(0, {source_, l.line, l.column, "",
              "expected one YAML document, found " + std::to_string(docs.size()) +
                  " (remove the '---' separator)"});
    }
    if (docs.empty() || docs[0].IsNull()) return;  // empty file: all defaults
    if (!docs[0].IsMap()) {
      const Loc l = loc(docs[0].Mark());
      add(0, {source_, l.line, l.column, "",
              "expected a mapping of keys (" + join_names(section_children(s_, "")) +
                  ") at the top level, got " + describe(docs[0])});
      unusable_ = true;
      return;
    }
    walk(docs[0], "");
  }

  void override_value(std::size_t k, const std::string& text) {
    const int bucket = static_cast<int>(k) + 1;
    const std::string src = "--set " + text;
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      add(bucket, {src, 0, 0, "", "expected KEY=VALUE" + override_example()});
      return;
    }
    const std::string key = text.substr(0, eq);
    const auto it = s_.leaf_index.find(key);
    if (it == s_.leaf_index.end()) {
      if (s_.sections.count(key) != 0) {
        add(bucket, {src, 0, 0, key,
                     "is a section, not a key; set one of its keys (" +
                         join_names(section_children(s_, key)) + ")"});
      } else {
        add(bucket, {src, 0, 0, "", "unknown key " + key + suggestion(s_, key)});
      }
      return;
    }
    YAML::Node node;
    try {
      node = YAML::Load(text.substr(eq + 1));
    } catch (const YAML::Exception& e) {
      add(bucket, {src, 0, 0, key, "cannot parse the value as YAML: " + e.msg});
      return;
    }
    raw_[it->second] = Raw{true, node, Origin{src, 0, 0}, bucket};  // later overrides win
  }

  // Converts every key; returns the values if there were no problems at all.
  std::optional<std::pair<std::vector<Value>, std::vector<Origin>>> finish() {
    std::vector<Value> values(s_.entries.size());
    std::vector<Origin> origins(s_.entries.size());
    for (std::size_t i = 0; i < s_.entries.size(); ++i) {
      const Entry& e = s_.entries[i];
      const Raw& r = raw_[i];
      if (r.present) {
        origins[i] = r.origin;
        if (auto v = convert(e, r)) values[i] = std::move(*v);
        continue;
      }
      origins[i] = Origin{source_, 0, 0};
      if (auto d = default_of(e)) {
        values[i] = std::move(*d);
      } else if (!unusable_ && !under_invalid_section(e.path)) {
        // A key inside a section that was not a mapping is not reported again: the one
        // problem there is the section.
        add(0, {source_, 0, 0, e.path, "required key is missing"});
      }
    }
    if (has_problems()) return std::nullopt;
    return std::make_pair(std::move(values), std::move(origins));
  }

  Origin origin_of_section(const std::string& path) const {
    const auto it = section_origin_.find(path);
    return it == section_origin_.end() ? Origin{source_, 0, 0} : it->second;
  }

  bool has_problems() const {
    return std::any_of(buckets_.begin(), buckets_.end(),
                       [](const std::vector<Problem>& b) { return !b.empty(); });
  }

  // The file's problems in file order (those without a line last, in schema order), then each
  // override's, in the order given on the command line.
  std::vector<Problem> problems() const {
    std::vector<Problem> file = buckets_[0];
    std::stable_sort(file.begin(), file.end(), [](const Problem& a, const Problem& b) {
      const auto key = [](const Problem& p) {
        return std::make_tuple(p.line == 0, p.line, p.column);
      };
      return key(a) < key(b);
    });
    for (std::size_t k = 1; k < buckets_.size(); ++k) {
      file.insert(file.end(), buckets_[k].begin(), buckets_[k].end());
    }
    return file;
  }

 private:
  // ", e.g. --set model.L=<integer>" with the schema's first key, so the hint fits the app.
  std::string override_example() const {
    const auto order = output_order(s_);
    if (order.empty()) return "";
    const Entry& e = s_.entries[order[0]];
    return ", e.g. --set " + e.path + "=<" + kind_name(e.spec.index()) + ">";
  }

  void add(int bucket, Problem p) { buckets_[static_cast<std::size_t>(bucket)].push_back(p); }

  bool under_invalid_section(const std::string& path) const {
    for (const auto& bad : invalid_sections_) {
      if (path.compare(0, bad.size() + 1, bad + ".") == 0) return true;
    }
    return false;
  }

  void walk(const YAML::Node& map, const std::string& prefix) {
    std::map<std::string, Loc> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node key = it->first;
      const YAML::Node value = it->second;
      const Loc kl = loc(key.Mark());
      if (!key.IsScalar()) {
        add(0, {source_, kl.line, kl.column, prefix,
                "keys must be plain names, got " + describe(key) + " as a key"});
        continue;
      }
      const std::string& name = key.Scalar();
      const std::string path = prefix.empty() ? name : prefix + "." + name;
      if (const auto dup = seen.find(name); dup != seen.end()) {
        add(0, {source_, kl.line, kl.column, path,
                "duplicate key (first given at " + std::to_string(dup->second.line) + ":" +
                    std::to_string(dup->second.column) + ")"});
        continue;
      }
      seen[name] = kl;
      if (name.find('.') != std::string::npos) {
        // Accepting "model.L: 8" as well as nesting would allow two spellings of one key in one
        // file; keep a single spelling.
        const bool known = s_.leaf_index.count(path) != 0 || s_.sections.count(path) != 0;
        add(0, {source_, kl.line, kl.column, path,
                known ? "unknown key (dotted keys are not expanded; nest the mappings instead)"
                      : "unknown key" + suggestion(s_, path)});
        continue;
      }
      if (const auto leaf = s_.leaf_index.find(path); leaf != s_.leaf_index.end()) {
        const Loc vl = value_loc(value, key);
        raw_[leaf->second] = Raw{true, value, Origin{source_, vl.line, vl.column}, 0};
      } else if (s_.sections.count(path) != 0) {
        // A section's body may span many lines; its header line is the place to point at.
        section_origin_[path] = Origin{source_, kl.line, kl.column};
        if (value.IsNull()) continue;  // "model:" with every key commented out
        if (!value.IsMap()) {
          add(0, {source_, kl.line, kl.column, path,
                  "expected a mapping (a section with keys " +
                      join_names(section_children(s_, path)) + "), got " + describe(value)});
          invalid_sections_.push_back(path);
          continue;
        }
        walk(value, path);
      } else {
        add(0, {source_, kl.line, kl.column, path, "unknown key" + suggestion(s_, path)});
      }
    }
  }

  std::optional<Value> default_of(const Entry& e) const {
    switch (e.spec.index()) {
      case detail::kInteger: {
        const auto& sp = std::get<Integer>(e.spec);
        if (sp.default_auto) return Value(std::optional<long long>());
        if (sp.default_value) return Value(std::optional<long long>(*sp.default_value));
        return std::nullopt;
      }
      case detail::kReal: {
        const auto& d = std::get<Real>(e.spec).default_value;
        return d ? std::optional<Value>(Value(std::in_place_index<detail::kReal>, *d))
                 : std::nullopt;
      }
      case detail::kBoolean: {
        const auto& d = std::get<Boolean>(e.spec).default_value;
        return d ? std::optional<Value>(Value(std::in_place_index<detail::kBoolean>, *d))
                 : std::nullopt;
      }
      case detail::kString: {
        const auto& d = std::get<String>(e.spec).default_value;
        return d ? std::optional<Value>(Value(std::in_place_index<detail::kString>, *d))
                 : std::nullopt;
      }
      default: {
        const auto& d = std::get<RealList>(e.spec).default_value;
        return d ? std::optional<Value>(Value(std::in_place_index<detail::kRealList>, *d))
                 : std::nullopt;
      }
    }
  }

  // Override values carry no usable position (it is within the --set text); file values do.
  Loc element_loc(const Raw& r, const YAML::Node& n) const {
    if (r.origin.line == 0) return {};
    const Loc l = loc(n.Mark());
    return l.line > 0 ? l : Loc{r.origin.line, r.origin.column};
  }

  void fail(const Raw& r, const std::string& path, const std::string& message) {
    add(r.bucket, {r.origin.source, r.origin.line, r.origin.column, path, message});
  }

  // A real scalar, or nullopt with `got` describing what was found instead.
  static std::optional<double> real_scalar(const YAML::Node& n, double min, double max,
                                           std::string& got) {
    double v = 0;
    const bool typed = n.IsScalar() && (is_plain(n) || n.Tag() == "tag:yaml.org,2002:float" ||
                                        n.Tag() == "tag:yaml.org,2002:int");
    if (typed && parse_real(n.Scalar(), v) && !std::isnan(v) && v >= min && v <= max) return v;
    got = describe(n);
    return std::nullopt;
  }

  std::optional<Value> convert(const Entry& e, const Raw& r) {
    const YAML::Node& n = r.node;
    switch (e.spec.index()) {
      case detail::kInteger: {
        const auto& sp = std::get<Integer>(e.spec);
        const bool typed = n.IsScalar() && (is_plain(n) || n.Tag() == "tag:yaml.org,2002:int");
        std::string hint;
        if (typed) {
          if (sp.allow_auto && n.Scalar() == "auto") return Value(std::optional<long long>());
          long long v = 0;
          switch (parse_integer(n.Scalar(), v)) {
            case IntParse::ok:
              if (v >= sp.min && v <= sp.max) return Value(std::optional<long long>(v));
              break;
            case IntParse::overflow:
              hint = " (too large for a 64-bit integer)";
              break;
            case IntParse::not_integer: {
              double d = 0;
              if (parse_real(n.Scalar(), d) && std::isfinite(d) && d == std::floor(d)) {
                hint = " (not an integer literal; write it without '.' or exponent)";
              }
              break;
            }
          }
        }
        fail(r, e.path,
             "expected an integer" + integer_range(sp.min, sp.max) +
                 (sp.allow_auto ? " or 'auto'" : "") + ", got " + describe(n) + hint);
        return std::nullopt;
      }
      case detail::kReal: {
        const auto& sp = std::get<Real>(e.spec);
        std::string got;
        if (auto v = real_scalar(n, sp.min, sp.max, got)) {
          return Value(std::in_place_index<detail::kReal>, *v);
        }
        fail(r, e.path, "expected a real number" + real_range(sp.min, sp.max) + ", got " + got);
        return std::nullopt;
      }
      case detail::kBoolean: {
        if (n.IsScalar() && (is_plain(n) || n.Tag() == "tag:yaml.org,2002:bool")) {
          const std::string& t = n.Scalar();
          if (t == "true" || t == "True" || t == "TRUE") {
            return Value(std::in_place_index<detail::kBoolean>, true);
          }
          if (t == "false" || t == "False" || t == "FALSE") {
            return Value(std::in_place_index<detail::kBoolean>, false);
          }
        }
        fail(r, e.path, "expected true or false, got " + describe(n));
        return std::nullopt;
      }
      case detail::kString: {
        const auto& sp = std::get<String>(e.spec);
        if (!n.IsScalar()) {
          fail(r, e.path,
               (sp.choices.empty() ? "expected a string"
                                   : "expected one of " + quote_list(sp.choices)) +
                   ", got " + describe(n));
          return std::nullopt;
        }
        const std::string& t = n.Scalar();
        if (!sp.choices.empty() &&
            std::find(sp.choices.begin(), sp.choices.end(), t) == sp.choices.end()) {
          const std::string near = closest(t, t, sp.choices);
          fail(r, e.path,
               "expected one of " + quote_list(sp.choices) + ", got " + quote_text(t) +
                   (near.empty() ? "" : " (did you mean " + quote_text(near) + "?)"));
          return std::nullopt;
        }
        return Value(std::in_place_index<detail::kString>, t);
      }
      default: {
        const auto& sp = std::get<RealList>(e.spec);
        const std::string expected = "a list of real numbers" + real_range(sp.min, sp.max);
        if (!n.IsSequence()) {
          fail(r, e.path, "expected " + expected + ", got " + describe(n));
          return std::nullopt;
        }
        std::vector<double> out;
        bool ok = true;
        for (std::size_t i = 0; i < n.size(); ++i) {
          std::string got;
          if (auto v = real_scalar(n[i], sp.min, sp.max, got)) {
            out.push_back(*v);
            continue;
          }
          // One problem per bad element, each at the element itself.
          const Loc l = element_loc(r, n[i]);
          add(r.bucket, {r.origin.source, l.line, l.column, e.path + "[" + std::to_string(i) + "]",
                         "expected a real number" + real_range(sp.min, sp.max) + ", got " + got});
          ok = false;
        }
        if (n.size() < sp.min_size) {
          fail(r, e.path,
               "expected " + expected + " with at least " + std::to_string(sp.min_size) +
                   " element" + (sp.min_size == 1 ? "" : "s") + ", got " +
                   std::to_string(n.size()));
          ok = false;
        }
        if (!ok) return std::nullopt;
        return Value(std::in_place_index<detail::kRealList>, std::move(out));
      }
    }
  }

  const SchemaData& s_;
  std::string source_;
  std::vector<Raw> raw_;
  std::vector<std::vector<Problem>> buckets_;
  std::vector<std::string> invalid_sections_;
  std::map<std::string, Origin> section_origin_;
  bool unusable_ = false;  // the file could not be read as a mapping; missing keys are moot
};

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string code(const std::string& s) {
  return "`" + s + "`";
}

}  // namespace

// ---- Schema -----------------------------------------------------------------------------------

Schema::Schema(std::string app_name) : data_(std::make_shared<detail::SchemaData>()) {
  data_->app = std::move(app_name);
}

detail::SchemaData& Schema::mutable_data() {
  // Configs loaded earlier share this data; give them the old version and change a copy.
  if (data_.use_count() > 1) data_ = std::make_shared<detail::SchemaData>(*data_);
  return *data_;
}

namespace {

void add_entry(detail::SchemaData& d, const std::string& path, detail::Spec spec, std::string doc,
               std::string units) {
  const auto parts = split_path(path);
  for (const auto& p : parts) {
    if (!valid_component(p)) {
      schema_error(
          d.app, "invalid key path '" + path + "' (components must match [A-Za-z_][A-Za-z0-9_-]*)");
    }
  }
  if (d.leaf_index.count(path) != 0) schema_error(d.app, "key '" + path + "' declared twice");
  if (d.sections.count(path) != 0) {
    schema_error(d.app, "key '" + path + "' is already a section of other keys");
  }
  std::string prefix;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    prefix += (i > 0 ? "." : "") + parts[i];
    if (d.leaf_index.count(prefix) != 0) {
      schema_error(d.app, "key '" + path + "' would be inside key '" + prefix + "'");
    }
  }
  if (doc.empty()) schema_error(d.app, "key '" + path + "' has no description");

  prefix.clear();
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    prefix += (i > 0 ? "." : "") + parts[i];
    d.sections.insert(prefix);
  }
  d.leaf_index[path] = d.entries.size();
  d.entries.push_back(detail::Entry{path, std::move(spec), std::move(doc), std::move(units)});
}

}  // namespace

Schema& Schema::add(const std::string& path, Integer spec, std::string doc, std::string units) {
  auto& d = mutable_data();
  if (spec.min > spec.max) schema_error(d.app, path + ": min > max");
  if (spec.default_value && (*spec.default_value < spec.min || *spec.default_value > spec.max)) {
    schema_error(d.app, path + ": default " + format_integer(*spec.default_value) + " is outside" +
                            integer_range(spec.min, spec.max));
  }
  if (spec.default_auto && (!spec.allow_auto || spec.default_value)) {
    schema_error(d.app, path + ": default_auto needs allow_auto and no default_value");
  }
  add_entry(d, path, spec, std::move(doc), std::move(units));
  return *this;
}

Schema& Schema::add(const std::string& path, Real spec, std::string doc, std::string units) {
  auto& d = mutable_data();
  if (std::isnan(spec.min) || std::isnan(spec.max) || spec.min > spec.max) {
    schema_error(d.app, path + ": invalid range");
  }
  if (spec.default_value) check_default_real(d.app, path, *spec.default_value, spec.min, spec.max);
  add_entry(d, path, spec, std::move(doc), std::move(units));
  return *this;
}

Schema& Schema::add(const std::string& path, Boolean spec, std::string doc) {
  add_entry(mutable_data(), path, spec, std::move(doc), "");
  return *this;
}

Schema& Schema::add(const std::string& path, String spec, std::string doc) {
  auto& d = mutable_data();
  if (spec.default_value && !spec.choices.empty() &&
      std::find(spec.choices.begin(), spec.choices.end(), *spec.default_value) ==
          spec.choices.end()) {
    schema_error(d.app, path + ": default '" + *spec.default_value + "' is not one of the choices");
  }
  add_entry(d, path, std::move(spec), std::move(doc), "");
  return *this;
}

Schema& Schema::add(const std::string& path, RealList spec, std::string doc, std::string units) {
  auto& d = mutable_data();
  if (std::isnan(spec.min) || std::isnan(spec.max) || spec.min > spec.max) {
    schema_error(d.app, path + ": invalid range");
  }
  if (spec.default_value) {
    for (double v : *spec.default_value) check_default_real(d.app, path, v, spec.min, spec.max);
    if (spec.default_value->size() < spec.min_size) {
      schema_error(d.app, path + ": default has fewer than min_size elements");
    }
  }
  add_entry(d, path, std::move(spec), std::move(doc), std::move(units));
  return *this;
}

Schema& Schema::check(Rule rule, std::string key_path) {
  auto& d = mutable_data();
  if (!rule) schema_error(d.app, "check() given an empty rule");
  if (!key_path.empty() && d.leaf_index.count(key_path) == 0 && d.sections.count(key_path) == 0) {
    schema_error(d.app, "check() on undeclared key '" + key_path + "'");
  }
  d.rules.push_back(detail::RuleEntry{std::move(rule), std::move(key_path)});
  return *this;
}

const std::string& Schema::app_name() const {
  return data_->app;
}

std::vector<std::string> Schema::keys() const {
  std::vector<std::string> out;
  for (std::size_t i : output_order(*data_)) out.push_back(data_->entries[i].path);
  return out;
}

bool Schema::has_key(const std::string& path) const {
  return data_->leaf_index.count(path) != 0;
}

std::string Schema::reference_markdown() const {
  std::ostringstream out;
  out << "# " << data_->app << " input reference\n\n"
      << "| Key | Type | Range / choices | Default | Units | Description |\n"
      << "|---|---|---|---|---|---|\n";
  const std::string required = "*required*";
  for (std::size_t i : output_order(*data_)) {
    const Entry& e = data_->entries[i];
    std::string type, range, def;
    switch (e.spec.index()) {
      case detail::kInteger: {
        const auto& sp = std::get<Integer>(e.spec);
        type = sp.allow_auto ? "integer or `auto`" : "integer";
        range = integer_range(sp.min, sp.max);
        def = sp.default_auto    ? code("auto")
              : sp.default_value ? code(format_integer(*sp.default_value))
                                 : required;
        break;
      }
      case detail::kReal: {
        const auto& sp = std::get<Real>(e.spec);
        type = "real";
        range = real_range(sp.min, sp.max);
        def = sp.default_value ? code(format_real_yaml(*sp.default_value)) : required;
        break;
      }
      case detail::kBoolean: {
        const auto& sp = std::get<Boolean>(e.spec);
        type = "boolean";
        def = sp.default_value ? code(*sp.default_value ? "true" : "false") : required;
        break;
      }
      case detail::kString: {
        const auto& sp = std::get<String>(e.spec);
        type = "string";
        for (std::size_t c = 0; c < sp.choices.size(); ++c) {
          range += (c > 0 ? ", " : "") + code(sp.choices[c]);
        }
        def = sp.default_value ? code(yaml_string(*sp.default_value)) : required;
        break;
      }
      default: {
        const auto& sp = std::get<RealList>(e.spec);
        type = "list of reals";
        range = "each" + real_range(sp.min, sp.max) + "; at least " + std::to_string(sp.min_size) +
                " element" + (sp.min_size == 1 ? "" : "s");
        def = sp.default_value ? code(format_real_list(*sp.default_value)) : required;
        break;
      }
    }
    if (!range.empty() && range[0] == ' ') range = range.substr(1);
    if (range.compare(0, 3, "in ") == 0) range = range.substr(3);
    out << "| " << code(e.path) << " | " << type << " | " << markdown_cell(range) << " | "
        << markdown_cell(def) << " | " << markdown_cell(e.units) << " | " << markdown_cell(e.doc)
        << " |\n";
  }
  return out.str();
}

// ---- Config -----------------------------------------------------------------------------------

Config::Config() = default;
Config::Config(std::shared_ptr<const detail::ConfigData> data) : data_(std::move(data)) {}

namespace {

const Value& lookup(const detail::ConfigData* d, const std::string& path, std::size_t kind) {
  if (d == nullptr) {
    throw std::logic_error("portamc::config: reading '" + path + "' from an empty Config");
  }
  const auto it = d->schema->leaf_index.find(path);
  if (it == d->schema->leaf_index.end()) {
    throw std::logic_error("portamc::config: '" + path + "' is not a key of the '" +
                           d->schema->app + "' schema");
  }
  const Value& v = d->values[it->second];
  if (v.index() != kind) {
    throw std::logic_error("portamc::config: '" + path + "' is declared as " +
                           kind_name(v.index()) + ", read as " + kind_name(kind));
  }
  return v;
}

}  // namespace

long long Config::integer(const std::string& path) const {
  const auto& v = std::get<detail::kInteger>(lookup(data_.get(), path, detail::kInteger));
  if (!v) {
    throw std::logic_error("portamc::config: '" + path +
                           "' is 'auto'; read it with integer_or_auto()");
  }
  return *v;
}

std::optional<long long> Config::integer_or_auto(const std::string& path) const {
  return std::get<detail::kInteger>(lookup(data_.get(), path, detail::kInteger));
}

double Config::real(const std::string& path) const {
  return std::get<detail::kReal>(lookup(data_.get(), path, detail::kReal));
}

bool Config::boolean(const std::string& path) const {
  return std::get<detail::kBoolean>(lookup(data_.get(), path, detail::kBoolean));
}

const std::string& Config::string(const std::string& path) const {
  return std::get<detail::kString>(lookup(data_.get(), path, detail::kString));
}

const std::vector<double>& Config::real_list(const std::string& path) const {
  return std::get<detail::kRealList>(lookup(data_.get(), path, detail::kRealList));
}

const std::string& Config::app_name() const {
  if (!data_) throw std::logic_error("portamc::config: app_name() of an empty Config");
  return data_->schema->app;
}

namespace {

void emit(const detail::ConfigData& d, const TreeNode& node, int depth, bool annotate,
          std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& c : node.children) {
    if (c.entry < 0) {
      out += indent + c.name + ":\n";
      emit(d, c, depth + 1, annotate, out);
      continue;
    }
    const Entry& e = d.schema->entries[static_cast<std::size_t>(c.entry)];
    out += indent + c.name + ": " + value_yaml(d.values[static_cast<std::size_t>(c.entry)]);
    if (annotate) {
      std::string note = e.doc;
      std::replace(note.begin(), note.end(), '\n', ' ');
      if (!e.units.empty()) note += " [" + e.units + "]";
      out += "  # " + note;
    }
    out += "\n";
  }
}

}  // namespace

std::string Config::to_yaml(bool annotate) const {
  if (!data_) throw std::logic_error("portamc::config: to_yaml() of an empty Config");
  std::string out;
  emit(*data_, build_tree(*data_->schema), 0, annotate, out);
  if (data_->schema->entries.empty()) out += "{}\n";  // an empty document would also be fine
  return out;
}

// ---- Problems ---------------------------------------------------------------------------------

std::string Problem::to_string() const {
  std::string out = source;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  if (!key_path.empty()) out += (out.empty() ? "" : ": ") + key_path;
  if (!out.empty()) out += ": ";
  return out + message;
}

namespace {

std::string join_problems(const std::vector<Problem>& problems) {
  if (problems.empty()) return "invalid configuration";
  std::string out;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) out += '\n';
    out += problems[i].to_string();
  }
  return out;
}

}  // namespace

ConfigError::ConfigError(std::vector<Problem> problems)
    : std::runtime_error(join_problems(problems)), problems_(std::move(problems)) {}

// ---- Loading ----------------------------------------------------------------------------------

Config load_string(const Schema& schema, const std::string& yaml, const std::string& source_name,
                   const std::vector<std::string>& overrides) {
  const SchemaData& s = detail::Access::schema(schema);
  Validator v(s, source_name, overrides.size());
  v.document(yaml);
  for (std::size_t k = 0; k < overrides.size(); ++k) v.override_value(k, overrides[k]);
  auto result = v.finish();
  if (!result) throw ConfigError(v.problems());

  auto data = std::make_shared<detail::ConfigData>();
  data->schema = detail::Access::share(schema);
  data->values = std::move(result->first);
  data->origins = std::move(result->second);
  Config config = detail::Access::make(data);

  // Rules see a complete, individually valid Config; all their complaints are reported together.
  std::vector<Problem> problems;
  for (const auto& rule : s.rules) {
    const std::optional<std::string> message = rule.rule(config);
    if (!message) continue;
    Origin o{source_name, 0, 0};
    if (const auto leaf = s.leaf_index.find(rule.key_path); leaf != s.leaf_index.end()) {
      o = data->origins[leaf->second];
    } else if (!rule.key_path.empty()) {
      o = v.origin_of_section(rule.key_path);
    }
    problems.push_back(Problem{o.source, o.line, o.column, rule.key_path, *message});
  }
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return config;
}

namespace {

// ---- Input files ------------------------------------------------------------------------------
// An input file is read whole into memory, so what is read is bounded: only a regular file (a
// FIFO can block forever, /dev/zero never ends, a directory has no text) of at most 1 MiB (an
// input is a few kB, so a bigger file is a wrong path, e.g. a data file given by mistake). The type
// and size are checked with stat() before the file is opened, so that nothing opens a device or
// waits for a FIFO's writer; O_NONBLOCK and fstat() catch a path replaced in between; and the read
// stops one byte past the limit, so a file that grows meanwhile cannot exhaust memory either.

constexpr std::size_t kMaxInputBytes = std::size_t{1} << 20;
const char* const kInputLimit = "input files are limited to 1 MiB (1048576 bytes)";

[[noreturn]] void unreadable(const std::string& path, const std::string& why) {
  throw ConfigError({Problem{"", 0, 0, "", "cannot read input file '" + path + "': " + why}});
}

[[noreturn]] void unreadable_errno(const std::string& path, int err) {
  unreadable(path, std::generic_category().message(err));
}

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

void check_input_file(const std::string& path, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) {
    unreadable(path, std::string("it is ") + file_type_name(st.st_mode) + ", not a regular file");
  }
  if (static_cast<unsigned long long>(st.st_size) > kMaxInputBytes) {
    unreadable(path, "it is " + std::to_string(st.st_size) + " bytes; " + kInputLimit);
  }
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() { ::close(fd_); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// The whole file, refused once it holds more than kMaxInputBytes.
std::string read_bounded(int fd, const std::string& path) {
  std::string text;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) unreadable_errno(path, errno);
    if (n == 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxInputBytes) {
      unreadable(path, std::string("it grew past 1 MiB while being read; ") + kInputLimit);
    }
  }
}

std::string read_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) unreadable_errno(path, errno);
  check_input_file(path, st);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) unreadable_errno(path, errno);
  const FileDescriptor file(fd);
  if (::fstat(file.get(), &st) != 0) unreadable_errno(path, errno);
  check_input_file(path, st);
  // The file is regular: waiting for it is fine, and most file systems ignore O_NONBLOCK for one,
  // but not all (with mandatory locks a read would fail with EAGAIN instead of waiting).
  const int flags = ::fcntl(file.get(), F_GETFL);
  if (flags >= 0) ::fcntl(file.get(), F_SETFL, flags & ~O_NONBLOCK);
  return read_bounded(file.get(), path);
}

}  // namespace

Config load_file(const Schema& schema, const std::string& path,
                 const std::vector<std::string>& overrides) {
  return load_string(schema, read_input_file(path), path, overrides);
}

Config defaults(const Schema& schema) {
  return load_string(schema, "", "<defaults>", {});
}

}  // namespace portamc::config
