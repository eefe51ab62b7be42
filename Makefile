# Convenience front door over CMake.  `make demo` builds the command alone
# (no tests, benchmarks or lab) and runs the demo; `make test` builds and
# runs every test (the command CI runs): the C tests and the Python
# package's pytest suite against the library just built, both always run,
# both reported, failing when either failed.  Test timeouts are multiplied
# by WM_TEST_TIMEOUT_FACTOR (default 4) for slow or loaded machines.
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 5
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# The Python tests run in a virtualenv made once (numpy, pytest, pandas,
# and triton and numba-cuda to compile kernels to PTX; no GPU needed).
PYVENV ?= $(BUILD)/pyvenv
PYTHON ?= python3
PYTEST_DEPS ?= numpy pytest pandas matplotlib triton numba-cuda jsonschema

# `make install`: the library, header, CMake package, warpmem.pc, the
# command, its manual page and completions under PREFIX (staged under
# DESTDIR when set, as packagers do).
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all cli demo test python-test-run test-asan fuzz python-test bench clean fmt install

# Everything `make test` tests: the tests and (with nvcc) the lab are on
# even in a build directory `make demo` configured without them.
all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DWM_BUILD_TESTS=ON \
	    -DWM_BUILD_LAB=ON -DWM_PYVENV=$(abspath $(PYVENV)) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# The command only: its static library and warpmem itself.  A new build
# directory is configured without the tests and the lab (whose CUDA
# compiler check alone takes 14 s on a loaded two-core machine).
cli:
	@if [ -f $(BUILD)/CMakeCache.txt ]; then \
	    cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null; \
	else \
	    cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release \
	        -DWM_BUILD_TESTS=OFF -DWM_BUILD_LAB=OFF >/dev/null; \
	fi
	cmake --build $(BUILD) -j $(JOBS) --target warpmem

install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

demo: cli
	./$(BUILD)/warpmem demo

# Both suites run whatever the first gives; the summary names each.
test: all $(PYVENV)/bin/pytest
	@c=0; p=0; \
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) || c=$$?; \
	$(MAKE) --no-print-directory python-test-run || p=$$?; \
	echo "make test: ctest $$( [ $$c = 0 ] && echo passed || echo FAILED), pytest $$( [ $$p = 0 ] && echo passed || echo FAILED)"; \
	[ $$c = 0 ] && [ $$p = 0 ]

$(PYVENV)/bin/pytest:
	$(PYTHON) -m venv $(PYVENV)
	$(PYVENV)/bin/pip install -q $(PYTEST_DEPS)

# python/src on the path and the freshly built library: no reinstall needed
python-test: all $(PYVENV)/bin/pytest
	$(MAKE) --no-print-directory python-test-run

python-test-run:
	WARPMEM_LIBRARY=$(abspath $(BUILD))/libwarpmem.so PYTHONPATH=python/src \
	    $(PYVENV)/bin/python -m pytest -q python/tests

test-asan:
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DWM_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS)

# libFuzzer harnesses (clang): build, then run each FUZZ_SECONDS on its
# corpus (fuzz/run.sh; findings in $(BUILD_FUZZ)/fuzz-crashes).
fuzz:
	CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DWM_FUZZ=ON -DWM_BUILD_TESTS=OFF -DWM_BUILD_LAB=OFF >/dev/null
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_ptx fuzz_lint fuzz_expr \
	    fuzz_arch fuzz_cli fuzz_argspec fuzz_ncucsv fuzz_npy fuzz_draw \
	    fuzz_cache fuzz_json fuzz_wgmma fuzz_tma fuzz_cluster
	./fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)

# The benchmarks are not part of `all`: built here, by the run that uses them.
bench: all
	cmake --build $(BUILD) -j $(JOBS) --target wm_bench
	PYTHON=$(if $(wildcard $(PYVENV)/bin/python),$(PYVENV)/bin/python,$(PYTHON)) \
	    ./bench/run.sh $(BUILD)

fmt:
	clang-format -i include/*.h $$(find src -name '*.[ch]') cli/*.c cli/*.h tests/*.c tests/*.h tests/consumer/*.c bench/*.c fuzz/*.c fuzz/*.h cli/doc/*.c

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
