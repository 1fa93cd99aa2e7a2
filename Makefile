# libdlsched — the two commands a newcomer needs:
#   make demo    install what is missing, build, run the main job
#   make check   install what is missing, build, run every test
# Long runs that CI also calls: check-asan, check-tsan, check-stress,
# check-memory, check-cross, check-install, check-mpi, docs. See README.md.

JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
BUILD   ?= build
CMAKE   ?= cmake
CTEST   ?= ctest

.PHONY: all deps deps-cross deps-fuzz deps-qemu check-qemu deps-mpi check-mpi demo check check-asan check-tsan check-clang \
        check-cross check-install check-freestanding check-fuzz check-stress check-memory check-fresh check-all \
        docs bench clean check-rtapp

all: check

deps:
	@tools/install-deps.sh

deps-cross:
	@tools/install-deps.sh --cross

deps-fuzz:
	@tools/install-deps.sh --fuzz

deps-qemu:
	@tools/install-deps.sh --qemu

deps-mpi:
	@tools/install-deps.sh --mpi

$(BUILD)/release/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release

demo: deps $(BUILD)/release/CMakeCache.txt
	$(CMAKE) --build $(BUILD)/release -j$(JOBS)
	@tools/demo.sh $(BUILD)/release

# The test build: assertions on, warnings are errors.
check: deps
	$(CMAKE) -S . -B $(BUILD)/check -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON
	$(CMAKE) --build $(BUILD)/check -j$(JOBS)
	cd $(BUILD)/check && $(CTEST) --output-on-failure -j$(JOBS)

check-asan: deps
	$(CMAKE) -S . -B $(BUILD)/asan -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON \
	  -DDLSCHED_SANITIZE=address,undefined -DDLSCHED_BUILD_BENCH=OFF
	$(CMAKE) --build $(BUILD)/asan -j$(JOBS)
	cd $(BUILD)/asan && DLS_TEST_SCALE=$${DLS_TEST_SCALE:-30} \
	  $(CTEST) --output-on-failure -j$(JOBS)

check-tsan: deps
	$(CMAKE) -S . -B $(BUILD)/tsan -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON \
	  -DDLSCHED_SANITIZE=thread -DDLSCHED_BUILD_BENCH=OFF
	$(CMAKE) --build $(BUILD)/tsan -j$(JOBS)
	cd $(BUILD)/tsan && DLS_TEST_SCALE=$${DLS_TEST_SCALE:-10} \
	  $(CTEST) --output-on-failure -j$(JOBS)

# The threaded stress of the POSIX platform (global EDF with real locks,
# timers and hotplug) for STRESS_SECONDS per case (default 12), in the test
# build and under ThreadSanitizer; `make check` runs it for about a second.
# Then 10,400 random sets (1 and 4 CPUs) through `dlsim sweep
# --check-analysis`: a disagreement between a test and the simulation
# fails the target and is left in build/analysis-stress. And 400 random
# sets through the dlsim executable against the reference global EDF.
check-stress: deps
	$(CMAKE) -S . -B $(BUILD)/check -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON
	$(CMAKE) --build $(BUILD)/check -j$(JOBS) --target test_posix_smp dlsim \
	  test_dlsim_cli_ref
	DLS_STRESS_SECONDS=$${STRESS_SECONDS:-12} $(BUILD)/check/tests/test_posix_smp
	cd $(BUILD)/check/tools/dlsim && DLS_TEST_SCALE=1000 ./test_dlsim_cli_ref
	mkdir -p $(BUILD)/analysis-stress
	cd $(BUILD)/analysis-stress && for cu in 1:0.1 4:0.4; do \
	  $(CURDIR)/$(BUILD)/check/tools/dlsim/dlsim sweep --cpus $${cu%:*} --tasks 8 \
	    --util $${cu#*:}:$${cu%:*}:$${cu#*:} --sets 520 --deadlines constrained \
	    --tests qpa,gfb,bak,bcl,rta,ff --check-analysis --horizon 300 --no-progress \
	    || exit 1; done
	$(CMAKE) -S . -B $(BUILD)/tsan -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON \
	  -DDLSCHED_SANITIZE=thread -DDLSCHED_BUILD_BENCH=OFF
	$(CMAKE) --build $(BUILD)/tsan -j$(JOBS) --target test_posix_smp
	DLS_STRESS_SECONDS=$${STRESS_SECONDS:-12} $(BUILD)/tsan/tests/test_posix_smp

# dlsim's memory at scale (tools/check-memory.sh): 10,000 tasks on 256
# CPUs with every output on, in the release build, must peak within 64 MiB
# of resident memory (GNU time's %M).
check-memory: deps $(BUILD)/release/CMakeCache.txt
	$(CMAKE) --build $(BUILD)/release -j$(JOBS) --target dlsim
	tools/check-memory.sh $(BUILD)

# dlsim-mpi (Open MPI from tools/install-deps.sh --mpi) against dlsim: a
# sweep on 1, 3 and 4 ranks gives the bytes of dlsim sweep --jobs 1 and 2;
# a rank killed or aborting mid-run, or mpirun interrupted, fails the run
# with no table written (tools/check-mpi.sh).
check-mpi: deps-mpi
	$(CMAKE) -S . -B $(BUILD)/check -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON
	$(CMAKE) --build $(BUILD)/check -j$(JOBS) --target dlsim dlsim-mpi
	tools/check-mpi.sh $(BUILD)

# dlsim on every *.json of an rt-app checkout (make check-rtapp
# RTAPP_DIR=~/rt-app): a table of file, exit status and verdict; fails if
# dlsim refuses or mis-handles a file for a reason not documented in
# docs/dlsim-researchers.md. Not part of CI (no rt-app checkout there).
check-rtapp: deps
	@test -n "$(RTAPP_DIR)" || { echo "make check-rtapp RTAPP_DIR=<rt-app checkout>"; exit 64; }
	$(CMAKE) -S . -B $(BUILD)/check -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON
	$(CMAKE) --build $(BUILD)/check -j$(JOBS) --target dlsim
	tools/run-rtapp-examples.sh --dlsim $(BUILD)/check/tools/dlsim/dlsim $(RTAPP_DIR)

# Clang build of everything with -Werror (gcc is the default compiler).
check-clang: deps
	CC=clang $(CMAKE) -S . -B $(BUILD)/clang -DCMAKE_BUILD_TYPE=Debug \
	  -DDLSCHED_ENABLE_ASSERT=ON -DDLSCHED_WERROR=ON
	$(CMAKE) --build $(BUILD)/clang -j$(JOBS)
	cd $(BUILD)/clang && DLS_TEST_SCALE=$${DLS_TEST_SCALE:-30} \
	  $(CTEST) --output-on-failure -j$(JOBS)

# i686, aarch64 and armhf builds run under qemu-user, plus a freestanding
# arm-none-eabi compile of the core.
check-cross: deps-cross
	tools/check-cross.sh $(BUILD)

# Bounded libFuzzer runs of dlsim's workload reader and of the simulator on
# what the reader accepts (FUZZ_SECONDS each, default 120).
check-fuzz: deps-fuzz
	tools/dlsim/fuzz/run.sh $${FUZZ_SECONDS:-120}
	tools/dlsim/fuzz/run.sh $${FUZZ_SECONDS:-120} fuzz_sim

# The contract on a fresh machine: a minimal Debian root (debootstrap) with
# nothing but make, a clean clone, and make check, check-cross and a short
# check-fuzz run there; every package must come from tools/install-deps.sh.
check-fresh:
	FUZZ_SECONDS=$${FUZZ_SECONDS:-10} tools/check-fresh.sh $(BUILD) demo check check-cross check-fuzz

# libdlsched as the scheduler of a bare-metal Cortex-M3 kernel
# (ports/cortex-m) under qemu-system-arm -M mps2-an385 with -icount, built
# -Os (DLSCHED_MINSIZE) and -O2: every deadline met, the overrunning
# thread throttled, the jobs as dlsim predicts them; footprint and costs.
check-qemu: deps-qemu
	tools/check-qemu.sh $(BUILD)

check-freestanding: deps-cross
	tools/check-freestanding.sh $(BUILD)

# Install to a staging prefix and build tests/consumer against it with
# find_package(dlsched) and with pkg-config.
check-install: deps
	tools/check-install.sh $(BUILD)

docs: deps
	$(CMAKE) -S . -B $(BUILD)/check
	$(CMAKE) --build $(BUILD)/check --target docs

bench: deps $(BUILD)/release/CMakeCache.txt
	$(CMAKE) --build $(BUILD)/release -j$(JOBS)
	@tools/demo.sh $(BUILD)/release bench

check-all: check check-clang check-asan check-tsan check-stress check-memory check-install check-mpi docs \
           check-fuzz check-cross check-qemu check-fresh

clean:
	rm -rf $(BUILD)
