# d3d12xs top-level Makefile: a thin wrapper around CMake/CTest.
#
#   make deps      install missing Debian 12 packages (scripts/install-deps.sh)
#   make build     gcc RelWithDebInfo build in build/
#   make demo      build, then run build/examples/scene (which renders, grades and checks a frame and
#                  writes build/scene.png), build/examples/gpu_culling (which culls on the COMPUTE queue,
#                  draws the survivors with one ExecuteIndirect, checks them and writes
#                  build/gpu_culling.png), build/examples/demo, build/examples/console_sync (which writes
#                  its trace, build/console_sync.trace.json, and a page that shows it) and
#                  build/examples/postprocess (which writes build/postprocess.png)
#   make test      gcc build + ctest, then clang ASan/UBSan build + ctest (which also
#                  runs each libFuzzer target 60 s from its seed corpus);
#                  prints "N passed, M failed, K skipped" and fails if M > 0
#   make bench     build and run every benchmark in build/bench/
#   make stress    the reliability loop: queue/fence/lifetime/hang/DispatchX tests STRESS_LOOPS
#                  times (default 50) in STRESS_BUILD (default build/) with every core kept busy
#   make fuzz      clang libFuzzer build of tests/fuzz_*.c in build-fuzz/
#   make install PREFIX=/some/dir
#   make clean

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

PREFIX          ?= /usr/local
BUILD_DIR       ?= build
ASAN_BUILD_DIR  ?= build-asan
FUZZ_BUILD_DIR  ?= build-fuzz
BUILD_TYPE      ?= RelWithDebInfo
ASAN_BUILD_TYPE ?= Debug
NPROC           := $(shell nproc 2>/dev/null || echo 2)
JOBS            ?= $(NPROC)
CTEST_JOBS      ?= 2
CMAKE           ?= cmake
CTEST           ?= ctest
CMAKE_ARGS      ?=

# D3D12XS_DEBUG for the ASan pass (1 = validation layer on, as in the gcc pass).
ASAN_TEST_DEBUG ?= 1

# Environment of the test runs. CMake sets the same values as CTest
# properties, so a plain `ctest` in either build directory matches this.
TEST_ENV := D3D12XS_DEBUG=1 D3D12XS_LOG=warn
ASAN_ENV := D3D12XS_DEBUG=$(ASAN_TEST_DEBUG) D3D12XS_LOG=warn \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps build demo test test-gcc test-asan bench stress fuzz install clean \
	_build _build-asan

all: build

deps:
	@bash scripts/install-deps.sh

# --- gcc RelWithDebInfo build ------------------------------------------------
build: deps
	@$(MAKE) --no-print-directory _build

_build:
	$(CMAKE) -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
		-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD_DIR) -j $(JOBS)

# --- clang ASan + UBSan build ------------------------------------------------
_build-asan:
	$(CMAKE) -S . -B $(ASAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=$(ASAN_BUILD_TYPE) \
		-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
		-DD3D12XS_SANITIZE=ON -DD3D12XS_BUILD_FUZZERS=ON -DD3D12XS_TEST_DEBUG=$(ASAN_TEST_DEBUG) $(CMAKE_ARGS)
	$(CMAKE) --build $(ASAN_BUILD_DIR) -j $(JOBS)

# --- demo ----------------------------------------------------------------------
demo: build
	@if [ ! -x $(BUILD_DIR)/examples/demo ]; then \
		echo "no demo: examples/demo.c has not been written yet" >&2; exit 1; fi
	./$(BUILD_DIR)/examples/scene $(BUILD_DIR)/scene.png
	@echo "the rendered scene, graded on the COMPUTE queue (docs/graphics.md): $(BUILD_DIR)/scene.png"
	./$(BUILD_DIR)/examples/gpu_culling $(BUILD_DIR)/gpu_culling.png
	@echo "instances culled on the COMPUTE queue, drawn by one ExecuteIndirect (docs/indirect.md): $(BUILD_DIR)/gpu_culling.png"
	./$(BUILD_DIR)/examples/demo
	./$(BUILD_DIR)/examples/console_sync
	./$(BUILD_DIR)/examples/postprocess $(BUILD_DIR)/postprocess.png
	@echo "the async post-process's image (docs/textures.md): $(BUILD_DIR)/postprocess.png"
	@echo "the same with a trace capture (50 rounds; its timestamps slow lavapipe, docs/benchmarks.md):"
	D3D12XS_TRACE=$(BUILD_DIR)/console_sync.trace.json ./$(BUILD_DIR)/examples/console_sync rounds=50
	@bash tools/trace-to-html.sh $(BUILD_DIR)/console_sync.trace.json $(BUILD_DIR)/console_sync.trace.html
	@echo "console_sync's queue timeline: $(BUILD_DIR)/console_sync.trace.json (docs/trace.md); open it with:"
	@echo "    xdg-open $(BUILD_DIR)/console_sync.trace.html"

# --- tests ---------------------------------------------------------------------
# $(call run_ctest,DIR,ENV): runs ctest in DIR with ENV, never fails, and
# writes "<passed> <failed> <skipped>" to DIR/ctest-counts (parsed from ctest's
# summary line "NN% tests passed, F tests failed out of T" and its "***Skipped"
# lines: ctest counts a skipped test as passed, we do not).
define run_ctest
	@echo "==> ctest in $(1)"
	@rm -f $(1)/ctest-counts $(1)/ctest.log
	@set +e; \
	( cd $(1) && env $(2) $(CTEST) --output-on-failure -j $(CTEST_JOBS) ) 2>&1 | tee $(1)/ctest.log; \
	rc=$${PIPESTATUS[0]}; \
	line=$$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' $(1)/ctest.log | tail -n 1); \
	if [ -n "$$line" ]; then \
		failed=$$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$$line"); \
		total=$$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$$line"); \
		skipped=$$(grep -c -E 'Test +#[0-9]+: .*\*\*\*Skipped' $(1)/ctest.log); \
		passed=$$((total - failed - skipped)); \
	else \
		passed=0; failed=0; skipped=0; \
	fi; \
	if [ $$rc -ne 0 ] && [ $$failed -eq 0 ]; then \
		echo "ctest in $(1) exited with status $$rc" >&2; failed=1; \
	fi; \
	echo "$$passed $$failed $$skipped" > $(1)/ctest-counts
endef

test: deps
	@$(MAKE) --no-print-directory _build
	$(call run_ctest,$(BUILD_DIR),$(TEST_ENV))
	@$(MAKE) --no-print-directory _build-asan
	$(call run_ctest,$(ASAN_BUILD_DIR),$(ASAN_ENV))
	@read p1 f1 s1 < $(BUILD_DIR)/ctest-counts; \
	read p2 f2 s2 < $(ASAN_BUILD_DIR)/ctest-counts; \
	echo "gcc: $$p1 passed, $$f1 failed, $$s1 skipped; clang asan+ubsan: $$p2 passed, $$f2 failed, $$s2 skipped"; \
	echo "$$((p1 + p2)) passed, $$((f1 + f2)) failed, $$((s1 + s2)) skipped"; \
	[ $$((f1 + f2)) -eq 0 ]

# One pass only, for quicker iteration.
test-gcc: deps
	@$(MAKE) --no-print-directory _build
	$(call run_ctest,$(BUILD_DIR),$(TEST_ENV))
	@read p f k < $(BUILD_DIR)/ctest-counts; echo "$$p passed, $$f failed, $$k skipped"; [ $$f -eq 0 ]

test-asan: deps
	@$(MAKE) --no-print-directory _build-asan
	$(call run_ctest,$(ASAN_BUILD_DIR),$(ASAN_ENV))
	@read p f k < $(ASAN_BUILD_DIR)/ctest-counts; echo "$$p passed, $$f failed, $$k skipped"; [ $$f -eq 0 ]

# --- benchmarks ----------------------------------------------------------------
# The bench_* programs; bench_sync runs cuda_ping_pong itself where it was built (and
# where the CUDA driver is missing, reports (d) as not measured).
bench: build
	@shopt -s nullglob; benches=(); \
	for f in $(BUILD_DIR)/bench/bench_*; do [ -f "$$f" ] && [ -x "$$f" ] && benches+=("$$f"); done; \
	if [ $${#benches[@]} -eq 0 ]; then echo "no benchmarks yet"; exit 0; fi; \
	for b in "$${benches[@]}"; do echo "==> $$b"; "$$b"; done

# --- reliability loop -----------------------------------------------------------
STRESS_BUILD ?= $(BUILD_DIR)
STRESS_LOOPS ?= 50
stress: deps
	@if [ "$(STRESS_BUILD)" = "$(ASAN_BUILD_DIR)" ]; then $(MAKE) --no-print-directory _build-asan; else $(MAKE) --no-print-directory _build; fi
	bash scripts/stress-loop.sh $(STRESS_BUILD) $(STRESS_LOOPS)

# --- fuzzers -------------------------------------------------------------------
fuzz: deps
	$(CMAKE) -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_BUILD_TYPE=$(ASAN_BUILD_TYPE) \
		-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
		-DD3D12XS_BUILD_FUZZERS=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(FUZZ_BUILD_DIR) -j $(JOBS)

# --- install / clean -----------------------------------------------------------
install: build
	$(CMAKE) --install $(BUILD_DIR) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_BUILD_DIR) $(FUZZ_BUILD_DIR)
