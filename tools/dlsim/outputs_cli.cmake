# dlsim's output files are complete or absent (out_file.h): each is written
# to a temporary file beside its path and renamed over it once complete. A
# write that fails (here: a file size limit, as a full disk would) exits 74
# naming the path and the reason, leaves an earlier file at the path as it
# was and no temporary file behind. A complete file takes the place of the
# earlier one with its mode, or gets 0666 less the umask, as fopen() gives.
# EMULATOR (cross builds) has '|' between its words.
string(REPLACE "|" ";" emulator "${EMULATOR}")
set(dir ${WORKDIR}/outputs_cli)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
string(REPLACE ";" " " cmd "${emulator} ${DLSIM} ${WORKLOAD} --quiet")

# Run `dlsim WORKLOAD --quiet ARGS` under sh with PRE before it; want RC.
function(run_dlsim pre args want_rc want_err)
  execute_process(COMMAND sh -c "${pre} exec ${cmd} ${args}" WORKING_DIRECTORY ${dir}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "${want_rc}" OR NOT err MATCHES "${want_err}")
    message(FATAL_ERROR "dlsim ${args} (${pre}): exit ${rc}, want ${want_rc}\n"
      "stderr should match ${want_err}:\n${err}")
  endif()
endfunction()

# Only the files named may be in the directory (no temporary file left).
function(only_files)
  file(GLOB left RELATIVE ${dir} ${dir}/* ${dir}/.*)
  list(SORT left)
  set(want ${ARGN})
  list(SORT want)
  if(NOT "${left}" STREQUAL "${want}")
    message(FATAL_ERROR "files left: ${left}; want: ${want}")
  endif()
endfunction()

# At most 1 block of 512 or 1024 bytes per file: the JSON does not fit.
# SIGXFSZ ignored, the write fails with EFBIG as on a full disk with ENOSPC.
set(small "trap '' XFSZ; ulimit -f 1;")
file(WRITE ${dir}/stats.json "earlier\n")
run_dlsim("${small}" "--json stats.json" 74 "^dlsim: cannot write stats.json: File too large\n$")
file(READ ${dir}/stats.json kept)
if(NOT kept STREQUAL "earlier\n")
  message(FATAL_ERROR "stats.json was changed by the failed write:\n${kept}")
endif()
only_files(stats.json)
# No earlier file: none is left at the path.
run_dlsim("${small}" "--json new.json --jobs jobs.csv" 74 "cannot write new.json: File too large")
only_files(stats.json)

# A complete write replaces the earlier file, keeping its mode.
execute_process(COMMAND chmod 640 ${dir}/stats.json)
run_dlsim("umask 022;" "--json stats.json --jobs jobs.csv" 0 "^$")
file(READ ${dir}/stats.json json)
if(NOT json MATCHES "^{\n  \"horizon_ns\": .*\n  \"jobs\": \\[\n.*\n  \\]\n}\n$")
  message(FATAL_ERROR "stats.json is not the run's statistics:\n${json}")
endif()
only_files(jobs.csv stats.json)
execute_process(COMMAND ls -l ${dir}/stats.json ${dir}/jobs.csv OUTPUT_VARIABLE modes)
if(NOT modes MATCHES "^-rw-r----- [^\n]*stats.json\n" AND NOT modes MATCHES "-rw-r----- [^\n]*stats.json")
  message(FATAL_ERROR "stats.json lost its mode 640:\n${modes}")
endif()
if(NOT modes MATCHES "-rw-r--r-- [^\n]*jobs.csv")
  message(FATAL_ERROR "jobs.csv should have 0666 less the umask 022:\n${modes}")
endif()

# An empty path is refused before the run, as fopen("") would be.
run_dlsim("" "--json ''" 74 "^dlsim: cannot open : No such file or directory\n$")
only_files(jobs.csv stats.json)

# A symbolic link stays one; the file it names is replaced.
file(WRITE ${dir}/target.json "earlier\n")
file(CREATE_LINK target.json ${dir}/link.json SYMBOLIC)
run_dlsim("" "--json link.json" 0 "^$")
file(READ ${dir}/target.json json)
if(NOT IS_SYMLINK ${dir}/link.json OR NOT json MATCHES "^{\n  \"horizon_ns\"")
  message(FATAL_ERROR "link.json should still name target.json, now the statistics")
endif()
only_files(jobs.csv link.json stats.json target.json)

# What an output writes during the run goes to scratch files in $TMPDIR
# (else /tmp), appended at the end: where none can be made, the run fails
# before it starts, naming the output, and leaves nothing at its path.
run_dlsim("TMPDIR=${dir}/none" "--trace scratch.json" 74
  "^dlsim: cannot write scratch.json: no scratch file [(][$]TMPDIR, else /tmp[)]: No such file or directory\n$")
if(EXISTS ${dir}/scratch.json)
  message(FATAL_ERROR "scratch.json was written without its scratch files")
endif()
