#pragma once
// Shared fixture of the end-to-end app tests: each test gets a private temporary directory,
// writes its YAML inputs there and runs the app binary with its output captured in log.txt.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>

namespace portamc::testing {

class AppTest : public ::testing::Test {
 protected:
  /// app: path of the executable; name: tells the temporary directories of two apps apart.
  AppTest(std::string app, const std::string& name)
      : app_(std::move(app)),
        dir_(std::filesystem::temp_directory_path() /
             ("portamc_" + name + "_app_" + std::to_string(::getpid()))) {}

  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write_input(const std::string& name, const std::string& text) {
    std::ofstream(path(name)) << text;
    return path(name);
  }
  std::string command(const std::string& args) const {
    return app_ + " " + args + " > " + path("log.txt") + " 2>&1";
  }
  /// Exit status of the app with `args`; its output goes to log.txt in the temp dir.
  int run(const std::string& args) {
    const int status = std::system(command(args).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  /// Exit status of a /bin/sh command line (to run the app under a limit such as ulimit); its
  /// output goes to log.txt. `line` must not contain single quotes.
  int run_shell(const std::string& line) {
    const std::string cmd = "/bin/sh -c '" + line + "' > " + path("log.txt") + " 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  /// Starts the app with `args`, sends SIGINT once `file` exists (at most 60 s later) and
  /// returns the exit status, or -1 if the app did not exit normally.
  int interrupt_once_written(const std::string& args, const std::string& file) {
    const std::string cmd = "exec " + command(args);
    const pid_t pid = ::fork();
    if (pid < 0) return -1;
    if (pid == 0) {
      ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(file) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(pid, SIGINT);
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
  }
  std::string log() const {
    std::ifstream in(path("log.txt"));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  std::string app_;
  std::filesystem::path dir_;
};

}  // namespace portamc::testing
