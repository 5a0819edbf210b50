/*
 * exec_fake_lib.c — the source of two test libraries with nothing in them
 * but their dynamic section (Makefile): libfake-tsan.so, a stub named
 * libtsan.so.2, and libneeds-tsan.so, which names it as needed, as a
 * ThreadSanitizer build of the preloaded library does.  tests/exec-run.t
 * gives them to the launcher, which must refuse the one its build cannot
 * run; neither is ever loaded.
 */
int lockbench_fake_lib_marker;
