#pragma once
// yaml-cpp 0.7 (Debian 12) accepts a quoted string that is never closed if the text ends with a
// line break: the string runs to the end of the file, every key after it becomes part of the
// string, and the run silently uses those keys' defaults. Where it does fail (in a flow
// collection, before a '---', without a final line break) it points at the end of the file, not
// at the quote. So before yaml-cpp sees a document, a small scanner finds every quoted string and
// refuses
//  - one not closed before the end of its document, and
//  - one that runs over a line looking like a mapping key ("name:" or "- name:") indented no
//    deeper than the key the string belongs to: the typical swallowed key. YAML 1.2 requires the
//    continuation lines of a quoted string to be indented more than its key (s-flow-line-prefix),
//    so this refuses no valid document; yaml-cpp just does not enforce it.
// A multi-line quoted string that is closed and indented as YAML requires still loads.

#include <string>
#include <vector>

namespace portamc::config {

struct QuoteProblem {
  int line = 0;  // 1-based position of the opening quote
  int column = 0;
  std::string message;
};

// Every unclosed or key-swallowing quoted string of `text`, in order.
std::vector<QuoteProblem> quoted_string_problems(const std::string& text);

}  // namespace portamc::config
