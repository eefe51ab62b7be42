# Convenience front door over CMake.  `make demo` builds and runs the demo;
# `make test` builds and runs every test (the command CI runs).
BUILD ?= build
BUILD_ASAN ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all demo test test-asan bench clean fmt

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: all
	./$(BUILD)/warpmem demo

test: all
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DWM_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS)

bench: all
	./bench/run.sh $(BUILD)

fmt:
	clang-format -i include/*.h src/*.c src/*.h cli/*.c cli/*.h tests/*.c tests/*.h bench/*.c

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
