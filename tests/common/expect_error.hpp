#pragma once
// Shared test helper: the statement must throw E, and E's message must name every needle
// (errors in portamc are judged by whether they say what is wrong).
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace portamc::testing {

template <class E, class F>
void expect_error(F&& statement, const std::vector<std::string>& needles) {
  try {
    statement();
    ADD_FAILURE() << "expected an exception";
  } catch (const E& error) {
    const std::string message = error.what();
    for (const std::string& needle : needles) {
      EXPECT_NE(message.find(needle), std::string::npos)
          << "message '" << message << "' does not mention '" << needle << "'";
    }
  }
}

}  // namespace portamc::testing
