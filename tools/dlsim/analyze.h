/*
 * dlsim analyze: the library's schedulability tests on the deadline tasks
 * of a workload file, one verdict per test.
 */
#ifndef DLSIM_ANALYZE_H
#define DLSIM_ANALYZE_H

/* `dlsim analyze FILE [options]`: argv[0] is "analyze". Returns the exit
 * status: 0 when every test ran (whatever the verdicts), 1 when the
 * deadline tasks are not a constrained-deadline set, 64 for bad usage, 65
 * for errors in the file, 66 when it cannot be read (as dlsim FILE); 0 for
 * --help (on stdout). */
int analyze_main(int argc, char **argv);

#endif
