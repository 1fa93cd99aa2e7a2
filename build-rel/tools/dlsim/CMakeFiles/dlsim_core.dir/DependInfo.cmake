
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tools/dlsim/analyze.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/analyze.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/analyze.c.o.d"
  "/work/main/tools/dlsim/cpu.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/cpu.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/cpu.c.o.d"
  "/work/main/tools/dlsim/engine.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/engine.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/engine.c.o.d"
  "/work/main/tools/dlsim/fair_server.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/fair_server.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/fair_server.c.o.d"
  "/work/main/tools/dlsim/guest.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/guest.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/guest.c.o.d"
  "/work/main/tools/dlsim/json.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/json.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/json.c.o.d"
  "/work/main/tools/dlsim/lock.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/lock.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/lock.c.o.d"
  "/work/main/tools/dlsim/lower.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/lower.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/lower.c.o.d"
  "/work/main/tools/dlsim/out_file.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/out_file.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/out_file.c.o.d"
  "/work/main/tools/dlsim/output.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output.c.o.d"
  "/work/main/tools/dlsim/output_jobs.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_jobs.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_jobs.c.o.d"
  "/work/main/tools/dlsim/output_json.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_json.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_json.c.o.d"
  "/work/main/tools/dlsim/output_observe.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_observe.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_observe.c.o.d"
  "/work/main/tools/dlsim/output_summary.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_summary.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_summary.c.o.d"
  "/work/main/tools/dlsim/output_svg.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_svg.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_svg.c.o.d"
  "/work/main/tools/dlsim/output_trace.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_trace.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_trace.c.o.d"
  "/work/main/tools/dlsim/output_util.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_util.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/output_util.c.o.d"
  "/work/main/tools/dlsim/platform.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/platform.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/platform.c.o.d"
  "/work/main/tools/dlsim/sweep.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep.c.o.d"
  "/work/main/tools/dlsim/sweep_analysis.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep_analysis.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep_analysis.c.o.d"
  "/work/main/tools/dlsim/sweep_cli.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep_cli.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep_cli.c.o.d"
  "/work/main/tools/dlsim/sweep_set.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep_set.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/sweep_set.c.o.d"
  "/work/main/tools/dlsim/thread.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/thread.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/thread.c.o.d"
  "/work/main/tools/dlsim/wake.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/wake.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/wake.c.o.d"
  "/work/main/tools/dlsim/workload.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload.c.o.d"
  "/work/main/tools/dlsim/workload_io.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_io.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_io.c.o.d"
  "/work/main/tools/dlsim/workload_keys.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_keys.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_keys.c.o.d"
  "/work/main/tools/dlsim/workload_sections.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_sections.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_sections.c.o.d"
  "/work/main/tools/dlsim/workload_servers.c" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_servers.c.o" "gcc" "tools/dlsim/CMakeFiles/dlsim_core.dir/workload_servers.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build-rel/CMakeFiles/dlsched_static.dir/DependInfo.cmake"
  "/work/main/build-rel/tools/prng/CMakeFiles/dls_prng.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
