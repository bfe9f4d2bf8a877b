#pragma once
// Typed configuration: each key declared once, bound to the member of a model's parameter
// struct it fills, with its type, range, default, units and description (issue #23 part 3).
//
//   config::Bindings<cvf::RunParameters> b("portamc-cvf");
//   b.integer("lattice.L", &cvf::RunParameters::L, {4, 1 << 20, 16}, "cells per side")
//    .choice("algorithm.sigma", &cvf::RunParameters::algorithm, sigma_names, "...")
//    .real("model.epsilon", [](auto& p) -> double& { return p.model.epsilon_kj_per_mol; },
//          {1e-6, 1e6, 5.5}, "Lennard-Jones energy", "kJ/mol");
//   const cvf::RunParameters p = b.parameters(config);
//
// The schema (b.schema()) is what --help, --dry-run and docs/config.md print and what the
// input is validated against; parameters() then fills a default-constructed struct from a
// validated Config, key by key, in declaration order. A member is named by a pointer to member
// or by a callable that returns a reference to it (nested members). Enumerations take their
// names from one EnumNames table, which also gives their to_string and parse, so the names in
// an input, in --help and in the output file cannot drift apart.
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "portamc/config.hpp"
#include "portamc/enum_names.hpp"

namespace portamc::config {

/// A Schema whose keys fill the members of a parameter struct P.
template <class P>
class Bindings {
 public:
  explicit Bindings(std::string app_name) : schema_(std::move(app_name)) {}

  /// An integer key into an integral member.
  template <class Member>
  Bindings& integer(const std::string& path, Member member, Integer spec, std::string doc,
                    std::string units = "") {
    schema_.add(path, spec, std::move(doc), std::move(units));
    return bind(member, [path](const Config& c) { return c.integer(path); });
  }
  /// An integer key that may be `auto`, stored as `when_auto` in the member then.
  template <class Member, class Value>
  Bindings& integer_or_auto(const std::string& path, Member member, Integer spec, Value when_auto,
                            std::string doc, std::string units = "") {
    schema_.add(path, spec, std::move(doc), std::move(units));
    // long long throughout, converted once into the member's own type.
    const long long automatic = static_cast<long long>(when_auto);
    return bind(member, [path, automatic](const Config& c) {
      return c.integer_or_auto(path).value_or(automatic);
    });
  }
  /// A real key; `scale` multiplies it into the member (a key in other units than the member).
  template <class Member>
  Bindings& real(const std::string& path, Member member, Real spec, std::string doc,
                 std::string units = "", double scale = 1) {
    schema_.add(path, spec, std::move(doc), std::move(units));
    return bind(member, [path, scale](const Config& c) { return scale * c.real(path); });
  }
  template <class Member>
  Bindings& boolean(const std::string& path, Member member, Boolean spec, std::string doc) {
    schema_.add(path, spec, std::move(doc));
    return bind(member, [path](const Config& c) { return c.boolean(path); });
  }
  /// A string key into a std::string member.
  template <class Member>
  Bindings& text(const std::string& path, Member member, String spec, std::string doc) {
    schema_.add(path, spec, std::move(doc));
    return bind(member, [path](const Config& c) { return c.string(path); });
  }
  template <class Member>
  Bindings& reals(const std::string& path, Member member, RealList spec, std::string doc,
                  std::string units = "") {
    schema_.add(path, spec, std::move(doc), std::move(units));
    return bind(member, [path](const Config& c) { return c.real_list(path); });
  }
  /// A key whose value is one of an enumeration's names; the default is `default_value`.
  template <class Member, class E>
  Bindings& choice(const std::string& path, Member member, const portamc::EnumNames<E>& names,
                   E default_value, std::string doc) {
    schema_.add(path, String{names.name(default_value), names.names()}, std::move(doc));
    return bind(member, [path, names](const Config& c) { return names.value(c.string(path)); });
  }
  /// A key filled by `fill(config, parameters)`: conversions no other binding covers.
  template <class Spec, class Fill>
  Bindings& custom(const std::string& path, Spec spec, std::string doc, Fill fill) {
    schema_.add(path, spec, std::move(doc));
    fills_.push_back(std::move(fill));
    return *this;
  }
  /// The same, for a key with units.
  template <class Spec, class Fill>
  Bindings& custom(const std::string& path, Spec spec, std::string doc, std::string units,
                   Fill fill) {
    schema_.add(path, spec, std::move(doc), std::move(units));
    fills_.push_back(std::move(fill));
    return *this;
  }
  /// Members that depend on several keys at once (a size list whose entries a shape key
  /// chooses, a value taken from one of several keys by a mode): `fill(config, parameters)`
  /// runs in declaration order and declares no key; the keys it reads are declared unbound.
  template <class Fill>
  Bindings& fill(Fill step) {
    fills_.push_back(std::move(step));
    return *this;
  }
  /// A key the app reads itself (output paths, analysis grids): declared, not bound.
  template <class Spec>
  Bindings& unbound(const std::string& path, Spec spec, std::string doc) {
    schema_.add(path, spec, std::move(doc));
    return *this;
  }
  template <class Spec>
  Bindings& unbound(const std::string& path, Spec spec, std::string doc, std::string units) {
    schema_.add(path, spec, std::move(doc), std::move(units));
    return *this;
  }
  /// A cross-key rule (Schema::check).
  Bindings& check(Schema::Rule rule, std::string key_path) {
    schema_.check(std::move(rule), std::move(key_path));
    return *this;
  }

  Schema& schema() { return schema_; }
  const Schema& schema() const { return schema_; }

  /// A default-constructed P with every bound key of the validated `config` filled in.
  P parameters(const Config& config) const {
    P p{};
    for (const auto& fill : fills_) fill(config, p);
    return p;
  }

 private:
  template <class Member, class Read>
  Bindings& bind(Member member, Read read) {
    fills_.push_back([member, read](const Config& c, P& p) {
      auto& target = std::invoke(member, p);
      target = static_cast<std::remove_reference_t<decltype(target)>>(read(c));
    });
    return *this;
  }

  Schema schema_;
  std::vector<std::function<void(const Config&, P&)>> fills_;
};

}  // namespace portamc::config
