#include "portamc/run_protocol.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "portamc/checkpoint_file.hpp"

namespace portamc::app {
namespace {

// What all ranks agree on after each unit of work.
struct Agreement {
  bool more_work = false;  // some rank is not done
  bool stop = false;       // a signal on some rank, or stop_after reached
  bool save = false;       // rank 0's clock says a periodic checkpoint is due
};

Agreement agree(const Context& context, const RunDriver& driver, bool stop_after_reached,
                bool save_due) {
  std::vector<std::uint64_t> flags{driver.done() ? 0u : 1u,
                                   stop_requested() || stop_after_reached ? 1u : 0u,
                                   context.is_root() && save_due ? 1u : 0u};
  context.comm.max(flags);
  return {flags[0] != 0, flags[1] != 0, flags[2] != 0};
}

void write_output(const Context& context, const RunPlan& plan, RunDriver& driver) {
  h5::OutputFile file(plan.output);
  auto root = file.root();
  h5::write_provenance(root, context.provenance(plan.seed));
  root.write_string("config", context.config.to_yaml(), "resolved configuration (YAML)");
  driver.write_results(root);
  file.commit();
}

}  // namespace

void add_checkpoint_keys(config::Schema& schema, const std::string& unit) {
  using config::Integer, config::Real, config::String;
  schema.add("checkpoint.file", String{"", {}}, "checkpoint file; empty = <output file>.checkpoint")
      .add("checkpoint.every", Real{0, 1e9, 600},
           "write a checkpoint when this much time has passed since the last (0: only when "
           "interrupted or stopped)",
           "s")
      .add("checkpoint.stop_after", Integer{0, 1LL << 62, 0},
           "write a checkpoint and stop (exit code 3) after this many units of work of this "
           "process (one unit: " +
               unit +
               "), as if interrupted (0: never); for batch jobs with a time limit, and tests");
}

RunPlan plan_run(const Context& context, const std::string& label, std::uint64_t seed) {
  return plan_run(context.config, context.options, label, seed);
}

RunPlan plan_run(const config::Config& c, const Options& options, const std::string& label,
                 std::uint64_t seed) {
  RunPlan plan;
  plan.label = label;
  plan.seed = seed;
  plan.output = options.output.empty() ? c.string("output.file") : options.output;
  const std::string file = c.string("checkpoint.file");
  plan.checkpoint.file = file.empty() ? plan.output + ".checkpoint" : file;
  plan.checkpoint.every_seconds = c.real("checkpoint.every");
  plan.checkpoint.stop_after = c.integer("checkpoint.stop_after");
  return plan;
}

void check_output_files_early(const config::Schema& schema, const config::Config& config,
                              const Options& options) {
  if (!options.resume.empty()) {
    try {
      h5::require_resumable_file(options.resume);
    } catch (const h5::BadCheckpoint& e) {
      throw BadInput(e.what());
    }
  }
  if (!schema.has_key("output.file") || !schema.has_key("checkpoint.file")) return;
  const RunPlan plan = plan_run(config, options, "", 0);
  const std::vector<NamedFile> written{{"output", plan.output},
                                       {"checkpoint.file", plan.checkpoint.file, true}};
  check_run_files_here(RunFiles{options.input, options.resume, written, {}, options.force});
}

int run_protocol(const Context& context, const RunPlan& plan,
                 const std::function<std::unique_ptr<RunDriver>()>& make) {
  std::vector<NamedFile> written{{"output", plan.output},
                                 {"checkpoint.file", plan.checkpoint.file, true}};
  written.insert(written.end(), plan.also_written.begin(), plan.also_written.end());
  check_run_files(context, written, plan.also_read);
  const FileLock lock = lock_checkpoint(context, plan.checkpoint.file);

  std::unique_ptr<RunDriver> made;
  collective_check(context, [&] { made = make(); });
  RunDriver& driver = *made;
  if (context.options.resume.empty())
    collective_check(context, [&] { driver.start(); });
  else
    collective_check(context, [&] { driver.resume(context.options.resume); });

  const bool verbose = !context.options.quiet && context.is_root();
  const std::string yaml = context.config.to_yaml();
  const Checkpointing& every = plan.checkpoint;
  {
    Progress progress(plan.label, verbose);
    double last_save = now_seconds();
    long long units = 0;
    // A resumed run may already be done (a checkpoint saved after its last unit).
    Agreement a = agree(context, driver, false, false);
    while (a.more_work) {
      driver.advance();
      ++units;
      progress.update(driver.fraction_done(), driver.status());
      const bool save_due =
          every.every_seconds > 0 && now_seconds() - last_save >= every.every_seconds;
      a = agree(context, driver, every.stop_after > 0 && units >= every.stop_after, save_due);
      if (a.stop && a.more_work) {
        driver.save(every.file, yaml);
        progress.finish();
        if (context.is_root())
          std::cerr << "interrupted: checkpoint written to " << every.file
                    << " (continue with --resume " << every.file
                    << (plan.resume_note.empty() ? "" : ", " + plan.resume_note) << ")\n";
        return exit_interrupted;
      }
      if (a.save && a.more_work) {
        driver.save(every.file, yaml);
        last_save = now_seconds();
      }
    }
  }
  driver.finish();
  if (!context.is_root()) return exit_ok;
  driver.analyse();
  try {
    write_output(context, plan, driver);
  } catch (const std::exception& e) {
    // A full disk at the very end: the last periodic checkpoint (if any) still holds most of
    // the run; say so, since the user's next step is to free space and resume from it.
    if (!std::filesystem::exists(every.file)) throw;
    throw std::runtime_error(std::string(e.what()) + "; the last checkpoint, " + every.file +
                             ", is kept: continue from it with --resume " + every.file +
                             " once the output can be written");
  }
  driver.write_other_files();
  // The results are safe on disk: the checkpoint has served its purpose.
  std::filesystem::remove(every.file);
  if (verbose) {
    driver.print_summary();
    std::string written = plan.output;
    for (const NamedFile& f : plan.also_written)
      if (!f.path.empty()) written += " and " + f.path;
    std::printf("wrote %s\n", written.c_str());
  }
  return exit_ok;
}

}  // namespace portamc::app
