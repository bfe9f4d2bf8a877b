// portamc::config — typed, validated YAML input for portamc apps.
//
// Every app declares one Schema: each key has a type, a range (or a list of choices), a one-line
// description, units where they apply, and either a default or the mark "required". Input comes
// from a YAML file (or string) plus `--set key=value` overrides; both go through the same
// validation. Validation never stops at the first problem: every unknown key, wrong type,
// out-of-range value and missing required key becomes one Problem naming the source, line:column
// and dotted key path, and all of them are thrown together in one ConfigError, so a user fixes an
// input file in one round instead of one error per run. Nothing downstream ever sees an invalid
// Config.
//
// Getting a value with the wrong accessor or an undeclared path is a programming error in the app,
// not a user error, and throws std::logic_error instead.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::config {

// ---- Key specifications ---------------------------------------------------------------------
// An unset default_value means the key is required. Ranges are inclusive. A spec that contradicts
// itself (min > max, default outside the range or not among the choices) is rejected by
// Schema::add with std::logic_error.

// A 64-bit integer. The input must be an integer literal: 3.5, 1e3, "16" (quoted) and true are
// rejected rather than converted, because silent conversion hides typos. With allow_auto the plain
// word `auto` is accepted too and means "let the app choose" (see Config::integer_or_auto).
struct Integer {
  long long min, max;
  std::optional<long long> default_value;
  bool allow_auto = false;
  // Default to `auto` instead of a number; needs allow_auto and no default_value.
  bool default_auto = false;
};

// A double. Integer literals are accepted; NaN never is; ±infinity (.inf) only if inside [min,
// max].
struct Real {
  double min, max;
  std::optional<double> default_value;
};

// YAML true/false only (any of true/True/TRUE/false/False/FALSE); yes/no/on/off/1/0 are rejected
// because YAML 1.1 and 1.2 readers disagree about them.
struct Boolean {
  std::optional<bool> default_value;
};

// Any scalar text. With non-empty choices the value must be one of them (exact, case-sensitive).
struct String {
  std::optional<std::string> default_value;
  std::vector<std::string> choices;  // empty = any string
};

// A YAML sequence of reals, each in [min, max], at least min_size long. A bare scalar is not
// accepted as a one-element list, so that `T: 1.5` for a list key is flagged, not guessed.
struct RealList {
  double min, max;
  std::optional<std::vector<double>> default_value;
  std::size_t min_size = 1;
};

class Config;

namespace detail {
struct SchemaData;
struct ConfigData;
struct Access;  // lets the loader in config.cpp reach the private parts below
}  // namespace detail

// ---- Schema ---------------------------------------------------------------------------------
// Paths are dotted ("model.L"); each component is [A-Za-z_][A-Za-z0-9_-]*. The prefixes of a path
// ("model") are sections: YAML mappings that hold keys. A path cannot be both a key and a section.
// Declaration order is the order of --dry-run output and of the reference table (keys of the same
// section are kept together, in the order their section first appeared).
class Schema {
 public:
  // A cross-key rule: return a message to reject the configuration, std::nullopt to accept it.
  using Rule = std::function<std::optional<std::string>(const Config&)>;

  explicit Schema(std::string app_name);

  // `doc` is one sentence; `units` may be empty. Throws std::logic_error on a malformed path,
  // a path declared twice or clashing with a section, or an inconsistent spec.
  Schema& add(const std::string& path, Integer spec, std::string doc, std::string units = "");
  Schema& add(const std::string& path, Real spec, std::string doc, std::string units = "");
  Schema& add(const std::string& path, Boolean spec, std::string doc);
  Schema& add(const std::string& path, String spec, std::string doc);
  Schema& add(const std::string& path, RealList spec, std::string doc, std::string units = "");

  // Adds a cross-key rule, run only once every key is individually valid (so a rule may call
  // any accessor without guarding against garbage). A returned message becomes a Problem on
  // `key_path` (a declared key, a section, or "" for the configuration as a whole); it carries
  // the line:column of that key if the input gave one. Rules run in the order they were added.
  Schema& check(Rule rule, std::string key_path);

  const std::string& app_name() const;
  // Declared key paths in output order.
  std::vector<std::string> keys() const;
  bool has_key(const std::string& path) const;

  // A Markdown table with one row per key: key, type, range/choices, default, units, description.
  std::string reference_markdown() const;

 private:
  friend struct detail::Access;
  detail::SchemaData& mutable_data();

  // Copy-on-write: a Config keeps the schema it was validated against alive and unchanged, and
  // loading does not copy the schema.
  std::shared_ptr<detail::SchemaData> data_;
};

// ---- Config ---------------------------------------------------------------------------------
// An immutable, validated set of values: every declared key has a value (defaults filled in).
// Copies are cheap and share storage.
class Config {
 public:
  // An empty Config (no schema); every accessor throws std::logic_error. Exists so that apps can
  // hold a Config member before loading.
  Config();

  // Accessors throw std::logic_error for an undeclared path or a key of another type.
  long long integer(const std::string& path) const;  // also throws if the value is `auto`
  std::optional<long long> integer_or_auto(const std::string& path) const;  // nullopt = `auto`
  double real(const std::string& path) const;
  bool boolean(const std::string& path) const;
  const std::string& string(const std::string& path) const;
  const std::vector<double>& real_list(const std::string& path) const;

  const std::string& app_name() const;

  // The resolved configuration as YAML: every key, nested mappings, schema order, reals with the
  // shortest text that reads back to the same double. load_string on the result reproduces the
  // same values exactly. With `annotate`, each key gets a trailing comment with its description
  // and units (handy for --dry-run; the result still parses).
  std::string to_yaml(bool annotate = false) const;

 private:
  friend struct detail::Access;
  explicit Config(std::shared_ptr<const detail::ConfigData> data);

  std::shared_ptr<const detail::ConfigData> data_;
};

// ---- Errors ---------------------------------------------------------------------------------
struct Problem {
  std::string source;    // file path, "<string>", "--set a.b=1", ...; empty if none applies
  int line = 0;          // 1-based; 0 = unknown
  int column = 0;        // 1-based; 0 = unknown
  std::string key_path;  // dotted, with [i] for list elements; empty if not about one key
  std::string message;

  // "source:line:column: key_path: message", leaving out the parts that are unknown/empty.
  std::string to_string() const;
};

class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(std::vector<Problem> problems);
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

// ---- Loading --------------------------------------------------------------------------------
// Parse, apply overrides ("a.b=value", value parsed as YAML, later overrides win), validate, fill
// in defaults, run the schema's rules. Throws ConfigError listing every problem. An empty input or
// a null document means "all defaults". A quoted string that is never closed, or that swallows a
// following key (docs/config.md), is a Problem at its opening quote. load_file uses `path` as the
// source name and reads only a regular file of at most 1 MiB; an unreadable or refused file is
// one Problem ("cannot read input file 'x.yaml': No such file or directory").
Config load_file(const Schema& schema, const std::string& path,
                 const std::vector<std::string>& overrides = {});
Config load_string(const Schema& schema, const std::string& yaml, const std::string& source_name,
                   const std::vector<std::string>& overrides = {});
// All defaults (source "<defaults>"); ConfigError listing the required keys if there are any.
Config defaults(const Schema& schema);

}  // namespace portamc::config
