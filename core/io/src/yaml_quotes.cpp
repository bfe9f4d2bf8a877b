// The quoted-string check of the YAML reader (yaml_quotes.hpp says why and what).
#include "yaml_quotes.hpp"

#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace portamc::config {
namespace {

// A swallowed key line, as a message shows it: a key-like line holds no control characters
// but a Windows line end.
std::string shown_line(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > 60) line = line.substr(0, 57) + "...";
  return "'" + line + "'";
}

struct QuotedString {
  char quote = '"';
  std::size_t begin = 0;  // offset of the opening quote
  std::size_t end = 0;    // offset just past the closing quote, or where the scan stopped
  bool closed = false;
  int line = 0;  // 1-based position of the opening quote
  int column = 0;
  int owner_column = -1;  // 0-based column of the key or '-' the string belongs to; -1: none
  int marker_line = 0;    // not closed: line of the document marker that ended it (0: the end)
};

// Knows just enough YAML to tell where a quoted string can start: at the start of a node (after
// indentation, "- ", "? ", ": ", '[', '{', ',', a tag or an anchor), never inside a plain scalar
// ("it's"), a comment or a block scalar ('|', '>'), whose quotes are ordinary characters.
class QuoteScanner {
 public:
  explicit QuoteScanner(const std::string& text) : t_(text) {}

  std::vector<QuotedString> scan() {
    if (t_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = line_start_ = 3;  // UTF-8 byte order mark
    while (!at_end()) {
      if (line_begin()) {
        while (!at_end() && t_[pos_] != '\n') token();
      }
      skip_to_next_line();
    }
    return found_;
  }

 private:
  bool at_end() const { return pos_ >= t_.size(); }
  // Past the end reads as a line break, so "followed by a blank" holds at the end too.
  char at(std::size_t i) const { return i < t_.size() ? t_[i] : '\n'; }
  static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
  static bool flow_indicator(char c) {
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
  }
  int column() const { return static_cast<int>(pos_ - line_start_); }
  bool in_flow() const { return flow_depth_ > 0; }

  void newline() {
    ++pos_;
    ++line_;
    line_start_ = pos_;
  }

  void skip_to_next_line() {
    while (!at_end() && t_[pos_] != '\n') ++pos_;
    if (!at_end()) newline();
  }

  bool rest_is_blank(std::size_t p) const {
    while (p < t_.size() && t_[p] != '\n') {
      if (!blank(t_[p++])) return false;
    }
    return true;
  }

  // "---" or "..." at the start of a line: no quoted string runs past one.
  bool document_marker(std::size_t line_begin) const {
    return line_begin + 3 <= t_.size() &&
           (t_.compare(line_begin, 3, "---") == 0 || t_.compare(line_begin, 3, "...") == 0) &&
           blank(at(line_begin + 3));
  }

  // Block mappings and sequences open at the column of a key or a '-'; a node that starts a line
  // belongs to the nearest one left of it.
  void open_block(int col) {
    if (indents_.empty() || indents_.back() < col) indents_.push_back(col);
    owner_column_ = col;
  }

  // Decides what a new line is. Returns false for a line with nothing to scan: blank, a comment,
  // a directive, or the content of a block scalar.
  bool line_begin() {
    std::size_t p = pos_;
    while (at(p) == ' ') ++p;
    const int indent = static_cast<int>(p - pos_);
    const bool marker = document_marker(pos_);
    if (block_parent_ && !marker && (rest_is_blank(p) || indent > *block_parent_)) return false;
    block_parent_.reset();
    if (rest_is_blank(p)) return false;  // blank lines may sit inside a plain scalar
    pos_ = p;
    if (marker) {
      start_document();
      return true;
    }
    if (t_[pos_] == '#' || (indent == 0 && t_[pos_] == '%' && !in_flow())) {
      plain_open_ = false;  // a comment ends a plain scalar
      return false;
    }
    if (in_flow()) return true;  // lines inside [ ] or { } carry no indentation structure
    if (plain_open_ && indent > owner_column_) return true;  // a multi-line plain scalar goes on
    plain_open_ = false;
    while (!indents_.empty() && indents_.back() >= indent) indents_.pop_back();
    owner_column_ = indents_.empty() ? -1 : indents_.back();
    node_start_ = true;
    after_quoted_ = false;
    return true;
  }

  void start_document() {
    pos_ += 3;
    flow_depth_ = 0;
    indents_.clear();
    owner_column_ = -1;
    node_start_ = true;
    after_quoted_ = false;
    plain_open_ = false;
  }

  void token() {
    const char c = t_[pos_];
    if (blank(c)) {
      ++pos_;
    } else if (c == '#' && (pos_ == line_start_ || blank(t_[pos_ - 1]))) {
      plain_open_ = false;
      while (!at_end() && t_[pos_] != '\n') ++pos_;
    } else if (indicator(c)) {
      // handled
    } else if (node_start_ && (c == '"' || c == '\'')) {
      quoted();
    } else if (node_start_ && !in_flow() && (c == '|' || c == '>')) {
      block_scalar();
    } else if (node_start_ && (c == '!' || c == '&' || c == '*')) {
      property();
      if (c == '*') node_start_ = false;  // an alias is a whole node; a tag or anchor precedes one
    } else {
      plain();
    }
  }

  // '-', '?', ':', '[', '{', ',', ']', '}' where YAML takes them as structure; false otherwise.
  bool indicator(char c) {
    const char next = at(pos_ + 1);
    if ((c == '-' || c == '?') && node_start_ && !in_flow() && blank(next)) {
      if (c == '-') open_block(column());
    } else if (c == ':' && (blank(next) || after_quoted_ || (in_flow() && flow_indicator(next)))) {
      // after_quoted_: a JSON-like key ("a":1) needs no blank after its ':'.
      if (node_start_) node_col_ = column();  // a key left empty
      if (!in_flow()) open_block(node_col_);
      node_start_ = true;
    } else if ((c == '[' || c == '{') && (node_start_ || in_flow())) {
      ++flow_depth_;
      node_start_ = true;
    } else if (c == ',' && in_flow()) {
      node_start_ = true;
    } else if ((c == ']' || c == '}') && in_flow()) {
      --flow_depth_;
      node_start_ = false;
    } else {
      return false;
    }
    ++pos_;
    after_quoted_ = false;
    plain_open_ = false;
    return true;
  }

  void quoted() {
    QuotedString s;
    s.quote = t_[pos_];
    s.begin = pos_;
    s.line = line_;
    s.column = column() + 1;
    s.owner_column = owner_column_;
    node_col_ = column();
    ++pos_;
    while (!at_end()) {
      const char c = t_[pos_];
      if (c == '\n') {
        if (document_marker(pos_ + 1)) {
          s.marker_line = line_ + 1;
          break;  // the marker line is scanned as usual
        }
        newline();
      } else if (c == '\\' && s.quote == '"') {
        ++pos_;  // an escaped line break is left to the branch above, which counts it
        if (!at_end() && t_[pos_] != '\n') ++pos_;
      } else if (c == s.quote) {
        ++pos_;
        if (s.quote == '\'' && !at_end() && t_[pos_] == '\'') {
          ++pos_;  // '' is a quote inside a single-quoted string
          continue;
        }
        s.closed = true;
        break;
      } else {
        ++pos_;
      }
    }
    s.end = pos_;
    found_.push_back(s);
    node_start_ = false;
    after_quoted_ = true;
    plain_open_ = false;
  }

  // '|' or '>': the lines after the header that are blank or indented more than the block
  // scalar's key are its content, quotes and all.
  void block_scalar() {
    block_parent_ = owner_column_;
    node_start_ = false;
    plain_open_ = false;
    while (!at_end() && t_[pos_] != '\n') ++pos_;
  }

  // A tag (!t, !!str), an anchor (&a) or an alias (*a).
  void property() {
    do {
      ++pos_;
    } while (!at_end() && !blank(t_[pos_]) && !(in_flow() && flow_indicator(t_[pos_])));
  }

  // A plain scalar ends at ": ", " #", the end of the line, and in flow context at ,[]{}.
  void plain() {
    if (node_start_) node_col_ = column();
    node_start_ = false;
    after_quoted_ = false;
    ++pos_;
    while (!at_end()) {
      const char c = t_[pos_];
      if (c == '\n' || (c == '#' && blank(t_[pos_ - 1]))) break;
      if (c == ':' && (blank(at(pos_ + 1)) || (in_flow() && flow_indicator(at(pos_ + 1))))) break;
      if (in_flow() && flow_indicator(c)) break;
      ++pos_;
    }
    plain_open_ = !in_flow();
  }

  const std::string& t_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
  int flow_depth_ = 0;
  bool node_start_ = true;           // a node may start here, so a quote here opens a quoted string
  bool after_quoted_ = false;        // the last token was a quoted string
  bool plain_open_ = false;          // the last line ended inside a plain scalar (block context)
  int node_col_ = 0;                 // column where the current node started
  int owner_column_ = -1;            // column of the key or '-' that a node here belongs to
  std::vector<int> indents_;         // columns of the open block mappings and sequences
  std::optional<int> block_parent_;  // inside a block scalar: its key's column
  std::vector<QuotedString> found_;
};

std::string quote_kind(const QuotedString& s) {
  return s.quote == '"' ? "double-quoted" : "single-quoted";
}

QuoteProblem unclosed_problem(const QuotedString& s) {
  const std::string until = s.marker_line > 0
                                ? "the document marker on line " + std::to_string(s.marker_line)
                                : "the end of the input";
  return {s.line, s.column,
          "the " + quote_kind(s) + " string that starts here is not closed: no closing " + s.quote +
              " before " + until};
}

// [p, end) is one line. Its indentation if it reads like a mapping key ("name:", "- name: x"),
// else -1.
int key_like_indent(const std::string& t, std::size_t p, std::size_t end) {
  const auto is = [&](std::size_t k, auto pred) {
    return k < end && pred(static_cast<unsigned char>(t[k]));
  };
  std::size_t k = p;
  while (k < end && t[k] == ' ') ++k;
  const std::size_t first = k;
  while (k + 1 < end && t[k] == '-' && t[k + 1] == ' ') {  // "- " entries of a sequence
    k += 2;
    while (k < end && t[k] == ' ') ++k;
  }
  if (!is(k, [](unsigned char c) { return std::isalpha(c) || c == '_'; })) return -1;
  while (
      is(k, [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-' || c == '.'; })) {
    ++k;
  }
  while (k < end && t[k] == ' ') ++k;
  if (k == end || t[k] != ':') return -1;
  if (k + 1 < end && !std::isspace(static_cast<unsigned char>(t[k + 1]))) return -1;
  return static_cast<int>(first - p);
}

// A closed string that runs over a key-like line indented no deeper than its own key.
std::optional<QuoteProblem> swallowing_problem(const std::string& t, const QuotedString& s) {
  int line = s.line;
  for (std::size_t nl = t.find('\n', s.begin); nl < s.end; nl = t.find('\n', nl + 1)) {
    ++line;
    const std::size_t p = nl + 1;
    const std::size_t end = std::min(t.find('\n', p), t.size());
    const int indent = key_like_indent(t, p, end);
    if (indent < 0 || indent > s.owner_column) continue;
    const std::size_t from = p + static_cast<std::size_t>(indent);
    return QuoteProblem{
        s.line, s.column,
        "the " + quote_kind(s) + " string that starts here swallows line " + std::to_string(line) +
            " (" + shown_line(t.substr(from, end - from)) +
            "), which looks like a key: is the closing " + s.quote +
            " missing? (a quoted string continued on further lines must indent them "
            "more than its key)"};
  }
  return std::nullopt;
}

}  // namespace

std::vector<QuoteProblem> quoted_string_problems(const std::string& text) {
  std::vector<QuoteProblem> problems;
  for (const QuotedString& s : QuoteScanner(text).scan()) {
    if (!s.closed) {
      problems.push_back(unclosed_problem(s));
    } else if (auto p = swallowing_problem(text, s)) {
      problems.push_back(std::move(*p));
    }
  }
  return problems;
}

}  // namespace portamc::config
