# Convenience front door over CMake.  `make demo` builds and runs the demo;
# `make test` builds and runs every test (the command CI runs): the C tests,
# then the Python package's pytest suite against the library just built.
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 5
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# The Python tests run in a virtualenv made once (numpy, pytest, pandas,
# and triton and numba-cuda to compile kernels to PTX; no GPU needed).
PYVENV ?= $(BUILD)/pyvenv
PYTHON ?= python3
PYTEST_DEPS ?= numpy pytest pandas triton numba-cuda

# `make install`: the library, header, CMake package, warpmem.pc, the
# command, its manual page and completions under PREFIX (staged under
# DESTDIR when set, as packagers do).
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all demo test test-asan fuzz python-test bench clean fmt install

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

demo: all
	./$(BUILD)/warpmem demo

test: all
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory python-test

$(PYVENV)/bin/pytest:
	$(PYTHON) -m venv $(PYVENV)
	$(PYVENV)/bin/pip install -q $(PYTEST_DEPS)

# python/src on the path and the freshly built library: no reinstall needed
python-test: all $(PYVENV)/bin/pytest
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
	    fuzz_arch fuzz_cli fuzz_argspec fuzz_ncucsv fuzz_npy fuzz_draw
	./fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)

bench: all
	PYTHON=$(if $(wildcard $(PYVENV)/bin/python),$(PYVENV)/bin/python,$(PYTHON)) \
	    ./bench/run.sh $(BUILD)

fmt:
	clang-format -i include/*.h src/*.c src/*.h cli/*.c cli/*.h tests/*.c tests/*.h tests/consumer/*.c bench/*.c fuzz/*.c fuzz/*.h cli/doc/*.c

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
